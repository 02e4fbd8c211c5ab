import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ACHPrenotification, ACHPrenotificationCreateParams } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer, ACHTransferCreateParams } from 'increase/resources/ach-transfers';
import { type Answer, header, notFound, send } from './fake-increase-answers';
import { FakeIncreaseLedger } from './fake-increase-ledger';
import { type Invalid, isInvalid, newPrenotification, newTransfer } from './fake-increase-objects';
import { type FakeIncreaseOptions, withDefaults } from './fake-increase-options';
import { increaseWebhook } from './fake-increase-webhooks';
import { compressedSendTime, receivingBankAnswer, receivingBankCreditReturn } from './fake-receiving-bank';

/** Increase's limit on an idempotency key's length. */
const IDEMPOTENCY_KEY_MAX = 200;

/** Increase's 400 for a request it refuses. */
const invalid = (title: string): Answer => [400, { status: 400, type: 'invalid_parameters_error', title }];

/** `ach_transfer` of `ach_transfer_123`: the category prefix of its events. */
const objectType = (id: string) => id.split('_').slice(0, -1).join('_');

/**
 * Increase's HTTP API as the adapter uses it, on 127.0.0.1 (a random port): prenotifications
 * (create, retrieve), ACH transfers (create, retrieve). Answers are the SDK's own response
 * types, so an SDK change breaks this file's build, and it refuses what Increase refuses
 * (field limits and characters, ./fake-increase-objects.ts; keys over 200 characters).
 * Idempotency as Increase documents it: keys are unique across Increase; the same key with
 * the same body answers the first object (`Idempotent-Replayed`), with another body
 * `409 idempotency_key_already_used_error` naming it; `createdPerKey` counts the entries
 * each key created (more than one is a double send). `failNext` makes the next requests
 * answer 429 or 503, before or after doing the work (a lost answer).
 *
 * Objects walk Increase's lifecycle only when a test moves them: a prenotification from
 * `pending_submitting` to `submitted` (and a notification of change), `returned` or
 * `requires_attention`; a transfer from `pending_submission` (or `pending_approval`) to
 * `submitted`, `returned`, `requires_attention` or `rejected`. `webhookFor` gives Increase's
 * signed webhook about any object (Standard Webhooks; the SDK keys the HMAC with the
 * secret's raw bytes).
 *
 * With `receivingBank` it also plays the banks behind the entries, days compressed
 * (`npm start` with `BANK_PROVIDER=increase-fake`, docs/local.md): each is submitted at once
 * and a prenotification dated so that its return window has ended (fake-receiving-bank.ts);
 * the receiving bank answers by the account number's last four digits, a return or a
 * notification of change recorded at once and its signed notice POSTed to `noticeUrl`
 * `noticeDelayMs` later, as Increase's webhook would be (so BankReturnWindows, should it run
 * first, finds it too).
 */
export class FakeIncrease extends FakeIncreaseLedger {
  /** Every request as received, faults included. */
  readonly requests: { method: string; path: string; idempotencyKey?: string }[] = [];
  /** Each notice POSTed to `noticeUrl`: the object it told of and the status answered (0: no answer). */
  readonly notices: { objectId: string; status: number }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private faults: { status: 429 | 503; afterWork: boolean }[] = [];
  private constructor(
    readonly url: string,
    private readonly close: () => Promise<void>,
    options: FakeIncreaseOptions,
  ) {
    super(options);
  }

  static async start(options: Partial<FakeIncreaseOptions> = {}): Promise<FakeIncrease> {
    const settings = withDefaults(options);
    let fake: FakeIncrease | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeIncrease(`http://127.0.0.1:${port}`, () => new Promise((r) => server.close(() => r())), settings);
    fake.load();
    return fake;
  }

  stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return this.close();
  }

  /** The next `count` requests answer `status`; `afterWork`: the object is created, only the answer is lost. */
  failNext(count: number, status: 429 | 503, { afterWork = false } = {}): void {
    this.faults.push(...Array.from({ length: count }, () => ({ status, afterWork })));
  }

  /**
   * Increase's webhook telling that an object changed (`<object type>.updated` by default),
   * signed with the secret (or another key, or at another time).
   */
  webhookFor(
    objectId: string,
    { category = `${objectType(objectId)}.updated`, signedWith = this.options.webhookSecret, at = new Date() } = {},
  ): { body: string; headers: Record<string, string> } {
    const sequence = ++this.sequence;
    return increaseWebhook({ sequence, objectId, category, at }, signedWith);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', this.url).pathname;
    const idempotencyKey = header(req, 'idempotency-key');
    this.requests.push({ method: req.method ?? '', path, ...(idempotencyKey && { idempotencyKey }) });
    if (header(req, 'authorization') !== `Bearer ${this.options.apiKey}`) {
      return send(res, 401, { status: 401, type: 'invalid_api_key_error', title: 'Invalid API key.' });
    }
    const fault = this.faults.shift();
    if (fault && !fault.afterWork) return send(res, fault.status, { status: fault.status, type: 'fault' });
    const [status, answer, headers] = this.route(req.method ?? '', path, body, idempotencyKey);
    if (fault) return send(res, fault.status, { status: fault.status, type: 'fault' });
    send(res, status, answer, headers);
  }

  private route(method: string, path: string, body: string, key: string | undefined): Answer {
    const [, collection, id] = path.split('/');
    const store = collection === 'ach_prenotifications' ? this.prenotifications : this.transfers;
    if (collection !== 'ach_prenotifications' && collection !== 'ach_transfers') return notFound();
    if (method === 'GET' && id) {
      const found = store.get(id);
      return found ? [200, found] : notFound();
    }
    if (method !== 'POST' || id) return notFound();
    if (key !== undefined && (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX)) {
      return invalid(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters.`);
    }
    if (key) {
      // Keys are unique across Increase: one used for another kind of object is taken too.
      const first = this.byKey.get(key);
      if (first && first.body === body && store.has(first.id)) {
        return [200, store.get(first.id), { 'idempotent-replayed': 'true' }];
      }
      if (first) {
        const conflict = { status: 409, type: 'idempotency_key_already_used_error', resource_id: first.id };
        return [409, { ...conflict, title: 'The idempotency key has been used for another request.', detail: null }];
      }
    }
    const created =
      collection === 'ach_prenotifications'
        ? this.createPrenotification(JSON.parse(body) as ACHPrenotificationCreateParams, key)
        : this.createTransfer(JSON.parse(body) as ACHTransferCreateParams, key);
    if (isInvalid(created)) return invalid(created.error);
    store.set(created.id, created as ACHPrenotification & ACHTransfer);
    this.answered(created);
    if (key) {
      this.byKey.set(key, { id: created.id, body });
      this.createdPerKey.set(key, (this.createdPerKey.get(key) ?? 0) + 1);
    }
    this.save();
    return [200, created];
  }

  /** What the receiving bank does with a new entry (`receivingBank`), and the statement code in the log. */
  private answered(created: ACHPrenotification | ACHTransfer): void {
    if (created.type === 'ach_transfer') {
      this.options.log(
        `Increase fake: a ${created.amount}-cent credit to account …${created.account_number.slice(-4)}, from "${created.company_name ?? ''}", described "${created.company_entry_description ?? ''}"`,
      );
      if (!this.options.receivingBank) return;
      const reason = receivingBankCreditReturn(created.account_number);
      if (reason) this.returnTransfer(created.id, reason);
      else if (created.status === 'pending_submission') created.status = 'submitted';
      if (reason) this.notifyLater(created.id);
      return;
    }
    if (!this.options.receivingBank) return;
    const answer = receivingBankAnswer(created.account_number, created.credit_debit_indicator);
    if (!answer) return;
    if ('returned' in answer) this.returnPrenotification(created.id, answer.returned);
    else this.notifyOfChange(created.id, answer.change);
    this.notifyLater(created.id);
  }

  /** Increase's webhook about the object, `noticeDelayMs` from now. */
  private notifyLater(objectId: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.notify(objectId);
    }, this.options.noticeDelayMs);
    this.timers.add(timer);
  }

  /** Increase's webhook to `noticeUrl`: one attempt (a failure is logged; Increase would retry). */
  private async notify(objectId: string): Promise<void> {
    const url = this.options.noticeUrl;
    if (!url) return;
    const { body, headers } = this.webhookFor(objectId);
    let status = 0;
    try {
      const answer = await fetch(url, {
        method: 'POST',
        body,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      status = answer.status;
    } catch {
      // No answer: recorded as 0.
    }
    this.notices.push({ objectId, status });
    if (status !== 200)
      this.options.log(`Increase fake: the notice of ${objectId} was answered ${status || 'nothing'}`);
  }

  private createPrenotification(p: ACHPrenotificationCreateParams, key?: string): ACHPrenotification | Invalid {
    const now = this.options.now();
    const receivingBank = this.options.receivingBank;
    return newPrenotification(p, key, () => ({
      id: `ach_prenotification_${++this.sequence}`,
      createdAt: receivingBank ? compressedSendTime(now) : now,
      status: receivingBank ? 'submitted' : 'pending_submitting',
    }));
  }

  private createTransfer(p: ACHTransferCreateParams, key?: string): ACHTransfer | Invalid {
    return newTransfer(p, key, () => ({ id: `ach_transfer_${++this.sequence}`, createdAt: this.options.now() }));
  }
}
