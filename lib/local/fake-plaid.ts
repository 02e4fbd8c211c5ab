import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { IdentityVerificationCreateRequest } from 'plaid';
import { finished, type Idv, kycAnswer, newIdv, refusal } from './fake-plaid-idv';
import { type FakePlaidOptions, withDefaults } from './fake-plaid-options';
import { statusUpdated, type WebhookSigner, webhookSigner } from './fake-plaid-webhooks';
import { closeServer, listenOnLoopback, readBody } from './loopback-server';

/** Far above any create the adapter sends. */
const MAX_BODY_BYTES = 64 * 1024;

type Answer = [number, unknown];
const plaidError = (status: number, error_type: string, error_code: string, error_message: string): Answer => [
  status,
  { error_type, error_code, error_message, display_message: null, request_id: 'fake' },
];

/**
 * Plaid's Identity Verification API as the adapter uses it, on 127.0.0.1 (a random port):
 * `/identity_verification/create`, `/identity_verification/get` and
 * `/webhook_verification_key/get`. Answers are the SDK's own response types, and it refuses
 * what Plaid refuses (./fake-plaid-idv.ts; credentials, an unknown template or IDV id), with
 * Plaid's error body. Idempotency as Plaid documents it: a create for a `client_user_id` and
 * template that has an IDV answers it with `is_idempotent`, else 400; `createdPerUser`
 * counts IDVs per `client_user_id` (more than one is a second paid check). More than
 * `rateLimitPerSecond` requests in a second answer `429 RATE_LIMIT_EXCEEDED`; `failNext`
 * makes the next requests answer 429 or 500, before or after the work (a lost answer).
 *
 * Lifecycle: an IDV starts `active`; `checkDelayMs` later its KYC check answers by the SSN's
 * last four digits (docs/sandbox.md#persons-on-the-plaid-fake) and the IDV is `success`,
 * `failed`, or `pending_review` until a reviewer passes it `reviewDelayMs` later; each end
 * sends Plaid's signed STATUS_UPDATED to `noticeUrl` (one attempt; `notices` records it).
 */
export class FakePlaid {
  readonly idvs = new Map<string, Idv>();
  readonly createdPerUser = new Map<string, number>();
  /** Every request as received, faults included. */
  readonly requests: { path: string }[] = [];
  readonly notices: { idvId: string; status: number }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private faults: { status: 429 | 500; afterWork: boolean }[] = [];
  private window = { second: 0, count: 0 };
  private sequence = 0;

  private constructor(
    readonly url: string,
    readonly options: FakePlaidOptions,
    readonly signer: WebhookSigner,
    private readonly close: () => Promise<void>,
  ) {}

  static async start(options: Partial<FakePlaidOptions> = {}): Promise<FakePlaid> {
    const settings = withDefaults(options);
    let fake: FakePlaid | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    const url = await listenOnLoopback(server);
    fake = new FakePlaid(url, settings, await webhookSigner(settings.now), () => closeServer(server));
    return fake;
  }

  stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return this.close();
  }

  /** The next `count` requests answer `status`; `afterWork`: the work is done, only the answer is lost. */
  failNext(count: number, status: 429 | 500, { afterWork = false } = {}): void {
    this.faults.push(...Array.from({ length: count }, () => ({ status, afterWork })));
  }

  /** Plaid is back: no fault waits any more. */
  clearFaults(): void {
    this.faults = [];
  }

  /** Plaid's STATUS_UPDATED about an IDV, signed now (or at `at`, or by another signer: a forgery). */
  notice(idvId: string, { at = this.options.now(), signer = this.signer } = {}) {
    return statusUpdated(signer, idvId, at);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req, MAX_BODY_BYTES).then(
      (body) => body.toString('utf8'),
      () => undefined,
    );
    const path = new URL(req.url ?? '/', this.url).pathname;
    this.requests.push({ path });
    const [status, body] =
      text === undefined
        ? plaidError(413, 'INVALID_REQUEST', 'INVALID_BODY', 'body too large')
        : this.answer(req, path, text);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private answer(req: IncomingMessage, path: string, text: string): Answer {
    if (this.overLimit()) return plaidError(429, 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT', 'rate limit exceeded');
    const fault = this.faults.shift();
    if (fault && !fault.afterWork) return this.faultAnswer(fault.status);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return plaidError(400, 'INVALID_REQUEST', 'INVALID_BODY', 'the body is not JSON');
    }
    const clientId = req.headers['plaid-client-id'] ?? body.client_id;
    const secret = req.headers['plaid-secret'] ?? body.secret;
    if (clientId !== this.options.clientId || secret !== this.options.secret) {
      return plaidError(400, 'INVALID_INPUT', 'INVALID_API_KEYS', 'invalid client_id or secret provided');
    }
    const answer = this.route(req.method ?? '', path, body);
    return fault ? this.faultAnswer(fault.status) : answer;
  }

  private route(method: string, path: string, body: Record<string, unknown>): Answer {
    if (method !== 'POST') return plaidError(404, 'INVALID_REQUEST', 'NOT_FOUND', 'not found');
    if (path === '/identity_verification/create')
      return this.create(body as unknown as IdentityVerificationCreateRequest);
    if (path === '/identity_verification/get') {
      const idv = this.idvs.get(String(body.identity_verification_id));
      return idv
        ? [200, idv]
        : plaidError(400, 'INVALID_REQUEST', 'INVALID_FIELD', 'identity_verification_id not found');
    }
    if (path === '/webhook_verification_key/get') {
      if (body.key_id !== this.signer.kid)
        return plaidError(400, 'INVALID_INPUT', 'INVALID_WEBHOOK_VERIFICATION_KEY_ID', 'unknown key');
      return [200, { key: this.signer.jwk, request_id: 'fake' }];
    }
    return plaidError(404, 'INVALID_REQUEST', 'NOT_FOUND', 'not found');
  }

  private create(request: IdentityVerificationCreateRequest): Answer {
    const refused = refusal(request, this.options.templateId);
    if (refused) return plaidError(400, refused.error_type, refused.error_code, `${refused.field} is invalid`);
    const key = request.client_user_id as string;
    const first = [...this.idvs.values()].find(
      (idv) => idv.client_user_id === key && idv.template.id === request.template_id,
    );
    if (first) {
      if (request.is_idempotent) return [200, first];
      return plaidError(
        400,
        'INVALID_REQUEST',
        'INVALID_FIELD',
        'an identity verification exists for this client_user_id',
      );
    }
    const idv = newIdv(request, `idv_${++this.sequence}${Date.now().toString(36)}`, this.options.now());
    this.idvs.set(idv.id, idv);
    this.createdPerUser.set(key, (this.createdPerUser.get(key) ?? 0) + 1);
    const { answer, kyc } = kycAnswer(request);
    const end = () => {
      finished(idv, kyc, answer === 'review' ? 'pending_review' : answer, this.options.now());
      if (answer !== 'review') return;
      this.later(this.options.reviewDelayMs, () => {
        finished(idv, { ...kyc, status: 'success' }, 'success', this.options.now());
        void this.notify(idv.id);
      });
    };
    if (this.options.checkDelayMs === 0) end();
    else
      this.later(this.options.checkDelayMs, () => {
        end();
        void this.notify(idv.id);
      });
    return [200, idv];
  }

  private later(ms: number, step: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      step();
    }, ms);
    this.timers.add(timer);
  }

  /** Plaid's STATUS_UPDATED to `noticeUrl`: one attempt (a failure is logged; Plaid would retry). */
  private async notify(idvId: string): Promise<void> {
    const url = this.options.noticeUrl;
    if (!url) return;
    const { body, headers } = await this.notice(idvId);
    let status = 0;
    try {
      status = (await fetch(url, { method: 'POST', body, headers })).status;
    } catch {
      // No answer: recorded as 0.
    }
    this.notices.push({ idvId, status });
    if (status !== 200) this.options.log(`Plaid fake: the notice of ${idvId} was answered ${status || 'nothing'}`);
  }

  private overLimit(): boolean {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.window.second) this.window = { second, count: 0 };
    return ++this.window.count > this.options.rateLimitPerSecond;
  }

  private faultAnswer(status: 429 | 500): Answer {
    return status === 429
      ? plaidError(429, 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT', 'rate limit exceeded')
      : plaidError(500, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'an unexpected error occurred');
  }
}
