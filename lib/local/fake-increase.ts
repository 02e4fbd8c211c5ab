import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ACHPrenotification, ACHPrenotificationCreateParams } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer, ACHTransferCreateParams } from 'increase/resources/ach-transfers';
import { type Answer, header, notFound, send } from './fake-increase-answers';
import { type Invalid, newPrenotification, newTransfer } from './fake-increase-objects';
import { type FakeIncreaseOptions, withDefaults } from './fake-increase-options';
import { readFakeIncreaseState, writeFakeIncreaseState } from './fake-increase-state';
import { increaseWebhook } from './fake-increase-webhooks';
import { compressedSendTime, receivingBankReturn } from './fake-receiving-bank';

/**
 * Increase's HTTP API as the adapter uses it, on 127.0.0.1 (a random port): prenotifications
 * (create, retrieve), ACH transfers (create, retrieve). Answers are the SDK's own response
 * types, so an SDK change breaks this file's build. Idempotency as Increase documents it:
 * the same key with the same body answers the first object (`Idempotent-Replayed`), with
 * another body `409 idempotency_key_already_used_error` naming it; `createdPerKey` counts
 * the entries each key created (more than one is a double send). `failNext` makes the next
 * requests answer 429 or 503, before or after doing the work (a lost answer). A test
 * returns a prenotification with `returnPrenotification` and gets Increase's signed
 * webhook for it (Standard Webhooks; the SDK keys the HMAC with the secret's raw bytes).
 *
 * With `receivingBank` it also plays the banks behind the prenotifications, days compressed
 * (`npm start` with `BANK_PROVIDER=increase-fake`, docs/local.md): each is submitted at once
 * and dated so that its return window has ended (fake-receiving-bank.ts); the receiving bank
 * answers by the account number's last four digits as the sandbox does, a return recorded at
 * once and its signed notice POSTed to `noticeUrl` `noticeDelayMs` later, as Increase's
 * webhook would be (so BankReturnWindows, should it run first, finds the return too).
 */
export class FakeIncrease {
  readonly prenotifications = new Map<string, ACHPrenotification>();
  readonly transfers = new Map<string, ACHTransfer>();
  readonly createdPerKey = new Map<string, number>();
  /** Every request as received, faults included. */
  readonly requests: { method: string; path: string; idempotencyKey?: string }[] = [];
  /** Each notice POSTed to `noticeUrl`: the object it told of and the status answered (0: no answer). */
  readonly notices: { objectId: string; status: number }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly byKey = new Map<string, { id: string; body: string }>();
  private faults: { status: 429 | 503; afterWork: boolean }[] = [];
  private sequence = 0;
  private constructor(
    readonly url: string,
    private readonly close: () => Promise<void>,
    readonly options: FakeIncreaseOptions,
  ) {}

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

  /** What `stateFile` holds (./fake-increase-state.ts), if anything. */
  private load(): void {
    const state = this.options.stateFile && readFakeIncreaseState(this.options.stateFile);
    if (!state) return;
    this.sequence = state.sequence;
    for (const prenote of state.prenotifications) this.prenotifications.set(prenote.id, prenote);
    for (const transfer of state.transfers) this.transfers.set(transfer.id, transfer);
    for (const [key, first] of state.byKey) this.byKey.set(key, first);
    for (const [key, count] of state.createdPerKey) this.createdPerKey.set(key, count);
  }

  private save(): void {
    if (!this.options.stateFile) return;
    writeFakeIncreaseState(this.options.stateFile, {
      sequence: this.sequence,
      prenotifications: [...this.prenotifications.values()],
      transfers: [...this.transfers.values()],
      byKey: [...this.byKey],
      createdPerKey: [...this.createdPerKey],
    });
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

  /** The prenotification sent with this idempotency key. */
  prenotificationByKey(key: string): ACHPrenotification | undefined {
    const id = this.byKey.get(key)?.id;
    return id === undefined ? undefined : this.prenotifications.get(id);
  }

  /** Increase submits every prenotification waiting to be (it does so within the day it was made). */
  submitPrenotifications(): void {
    for (const prenote of this.prenotifications.values()) {
      if (prenote.status === 'pending_submitting') prenote.status = 'submitted';
    }
  }

  /** Increase holds a prenotification for a person to look at: it is not sent. */
  holdPrenotification(id: string): void {
    const prenote = this.prenotifications.get(id);
    if (!prenote) throw new Error(`no prenotification ${id}`);
    prenote.status = 'requires_attention';
  }

  /** The receiving bank returns the prenotification. */
  returnPrenotification(id: string, reason: ACHPrenotification.PrenotificationReturn['return_reason_code']) {
    const prenote = this.prenotifications.get(id);
    if (!prenote) throw new Error(`no prenotification ${id}`);
    prenote.status = 'returned';
    prenote.prenotification_return = { created_at: this.options.now().toISOString(), return_reason_code: reason };
    return prenote;
  }

  /** Increase's webhook telling that an object changed, signed with the secret (or another key, or at another time). */
  webhookFor(
    objectId: string,
    { category = 'ach_prenotification.updated', signedWith = this.options.webhookSecret, at = new Date() } = {},
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
    if (key) {
      const first = this.byKey.get(key);
      if (first && first.body === body) return [200, store.get(first.id), { 'idempotent-replayed': 'true' }];
      if (first) {
        const conflict = { status: 409, type: 'idempotency_key_already_used_error', resource_id: first.id };
        return [409, { ...conflict, title: 'The idempotency key has been used for another request.', detail: null }];
      }
    }
    const created =
      collection === 'ach_prenotifications'
        ? this.createPrenotification(JSON.parse(body) as ACHPrenotificationCreateParams, key)
        : this.createTransfer(JSON.parse(body) as ACHTransferCreateParams, key);
    if ('error' in created) return [400, { status: 400, type: 'invalid_parameters_error', title: created.error }];
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
        `Increase fake: a ${created.amount}-cent credit to account …${created.account_number.slice(-4)}, described "${created.company_entry_description ?? ''}"`,
      );
      return;
    }
    if (!this.options.receivingBank) return;
    const reason = receivingBankReturn(created.account_number, created.credit_debit_indicator);
    if (!reason) return;
    this.returnPrenotification(created.id, reason);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.notify(created.id);
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
