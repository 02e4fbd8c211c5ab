import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeIncrease } from '#lib/local/fake-increase';
import type { AccountCheck, BankAccountCheckRef, BankOutcome, PendingCheck } from '#shared/bank/bank-provider';
import { IncreaseBank } from '#shared/bank/increase/increase-bank';
import { sandboxAccountCheck } from '#shared/bank/sandbox-bank';

/**
 * The Increase fake as the receiving bank (`receivingBank`, what `npm start` runs on with
 * BANK_PROVIDER=increase-fake): prenotifications submitted at once, dated so their window
 * has ended, and returned by the sandbox's numbers (docs/sandbox.md) with the ACH code that
 * means the sandbox's outcome, told by a signed notice POSTed to the notice URL.
 */
let fake: FakeIncrease;
let bank: IncreaseBank;
const received: { body: string; headers: Record<string, string> }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers as Record<string, string> });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  fake = await FakeIncrease.start({
    receivingBank: true,
    noticeDelayMs: 10,
    noticeUrl: `http://127.0.0.1:${port}/bank/notices`,
  });
  bank = new IncreaseBank({
    apiKey: fake.options.apiKey,
    webhookSecret: fake.options.webhookSecret,
    accountId: 'account_local_fake',
    baseURL: fake.url,
  });
});
afterAll(async () => {
  await fake.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

let counter = 0;
const accountEnding = (suffix: string): BankAccountCheckRef => ({
  tenant: 'tenant-alice',
  id: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  routing_number: '021000021',
  account_number: `98765${String(counter).padStart(2, '0')}${suffix}`,
  account_holder_name: 'Jane Doe',
});

/**
 * How long a test waits for what comes on the fake's own timer (its notices, 10 ms after a
 * return): generous, so a busy machine is slower, not failing.
 */
const NOTICE_WAIT = { timeout: 10_000 } as const;
/** A test that waits for notices: its own time, beyond the wait. */
const WAITS_FOR_NOTICES = { timeout: 2 * NOTICE_WAIT.timeout } as const;

/** Waits for the notices of `count` returns and reads them as the notice route does. */
async function noticesOf(account: BankAccountCheckRef, count: number): Promise<BankOutcome[]> {
  const outcomes: BankOutcome[] = [];
  for (const until = Date.now() + NOTICE_WAIT.timeout; Date.now() < until; ) {
    outcomes.length = 0;
    for (const notice of received) outcomes.push(...(await bank.readNotice(notice.body, notice.headers)));
    const mine = outcomes.filter((outcome) => outcome.id === account.id);
    if (mine.length >= count) return mine;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${count} notices for ${account.account_number}`);
}

/** The account as its returns (or their absence at the window's end) settle it. */
function settledBy(outcomes: readonly BankOutcome[]): AccountCheck {
  const status = outcomes.find((outcome) => outcome.kind === 'status')?.returned;
  const debit = outcomes.find((outcome) => outcome.kind === 'debit')?.returned;
  return { verification_status: 'valid', debit_status: 'valid', ...debit, ...status } as AccountCheck;
}

describe('the Increase fake as the receiving bank, by the sandbox’s numbers', WAITS_FOR_NOTICES, () => {
  it.each([
    ['1111', 2],
    ['2222', 2],
    ['3333', 2],
    ['4444', 1],
    ['5555', 2],
  ])(
    'returns the prenotifications to an account ending %s with the codes that settle it as the sandbox does',
    async (suffix, returns) => {
      const account = accountEnding(suffix);
      await bank.checkAccount(account, 1);
      const outcomes = await noticesOf(account, returns);
      expect(settledBy(outcomes)).toEqual(sandboxAccountCheck(account));
    },
  );

  it('returns R02 for 2222 and R04 for 1111, as Increase names them', async () => {
    const closed = accountEnding('2222');
    const invalid = accountEnding('1111');
    await bank.checkAccount(closed, 1);
    await bank.checkAccount(invalid, 1);
    const reason = (account: BankAccountCheckRef) =>
      fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.prenotification_return?.return_reason_code;
    expect(reason(closed)).toBe('account_closed');
    expect(reason(invalid)).toBe('invalid_account_number_structure');
  });

  it('submits a prenotification to any other account at once and returns nothing: valid when its window ends', async () => {
    const account = accountEnding('6789');
    await bank.checkAccount(account, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = (['status', 'debit'] as const).map(
      (kind) => fake.prenotificationByKey(`tenant-alice.${account.id}.${kind}.1`)?.id ?? '',
    );
    expect(await bank.confirmSilence('status', sent[0] ?? '')).toBe('silent');
    expect(await bank.confirmSilence('debit', sent[1] ?? '')).toBe('silent');
    expect(fake.notices.filter((notice) => sent.includes(notice.objectId))).toEqual([]);
  });

  it('dates each prenotification so that its return window has already ended: days compressed', async () => {
    const before = Date.now();
    const pending = (await bank.checkAccount(accountEnding('6789'), 1)) as PendingCheck;
    expect(pending.windowEndsAt.getTime()).toBeLessThanOrEqual(Date.now());
    // The latest such day: a day later, the window would not have ended yet.
    expect(pending.windowEndsAt.getTime()).toBeGreaterThan(before - 5 * 24 * 3600_000);
  });

  it('a return is recorded at once, so the end of the window finds it even before its notice', async () => {
    const account = accountEnding('2222');
    await bank.checkAccount(account, 1);
    const id = fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id ?? '';
    expect(await bank.confirmSilence('status', id)).toMatchObject({ verification_status: 'closed' });
  });

  it('logs every credit with its description, where the statement code is', async () => {
    const lines: string[] = [];
    fake.options.log = (line) => lines.push(line);
    const credit = await bank.sendStatementCredit(accountEnding('6789'), 'Acme');
    expect(lines).toEqual([expect.stringContaining(`from "Acme ${credit.statementCode}", described "ACCTVERIFY"`)]);
    expect(lines[0]).toContain('account …6789');
  });

  it('with a state file, a restarted fake still knows what it sent (npm start with DATA_DIR)', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'fake-increase-')), 'increase-fake.json');
    const first = await FakeIncrease.start({ receivingBank: true, stateFile });
    const account = accountEnding('2222');
    await new IncreaseBank({ ...first.options, accountId: 'account_local_fake', baseURL: first.url }).checkAccount(
      account,
      1,
    );
    await first.stop();
    const again = await FakeIncrease.start({ receivingBank: true, stateFile });
    try {
      const restarted = new IncreaseBank({ ...again.options, accountId: 'account_local_fake', baseURL: again.url });
      const id = again.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id ?? '';
      expect(await restarted.confirmSilence('status', id)).toMatchObject({ verification_status: 'closed' });
      // The same key answers the first entry, not a second one.
      await restarted.checkAccount(account, 1);
      expect(again.createdPerKey.get(`tenant-alice.${account.id}.status.1`)).toBe(1);
    } finally {
      await again.stop();
    }
  });
});

/** A create sent to the fake as the SDK sends it; the status and body of its answer. */
async function create(path: 'ach_prenotifications' | 'ach_transfers', body: object, key?: string) {
  const answer = await fetch(`${fake.url}/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fake.options.apiKey}`, ...(key && { 'idempotency-key': key }) },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const PRENOTE = { account_id: 'account_local_fake', account_number: '12345678', routing_number: '021000021' };
const CREDIT = { ...PRENOTE, amount: 1, statement_descriptor: 'Account verification credit' };

describe('the Increase fake refuses what Increase refuses (its published field limits)', () => {
  it.each([
    ['an individual_name over 22 characters', { individual_name: 'A'.repeat(23) }],
    ['a company_name over 16 characters', { company_name: 'A'.repeat(17) }],
    ['a company_entry_description over 10 characters', { company_entry_description: 'A'.repeat(11) }],
    ['a routing number of 8 digits', { routing_number: '02100002' }],
    ['a routing number with a letter', { routing_number: '02100002X' }],
    ['an account number of 18 digits', { account_number: '1'.repeat(18) }],
    ['an account number with a hyphen', { account_number: '1234-5678' }],
    ['a name outside ASCII (Nacha’s alphameric fields)', { individual_name: 'José Núñez' }],
  ])('refuses %s with 400, for prenotifications and transfers alike', async (_, fields) => {
    for (const [path, body] of [
      ['ach_prenotifications', PRENOTE],
      ['ach_transfers', CREDIT],
    ] as const) {
      const answer = await create(path, { ...body, ...fields });
      expect(answer).toMatchObject({ status: 400, body: { type: 'invalid_parameters_error' } });
    }
  });

  it('takes the widest values Increase takes', async () => {
    const widest = {
      individual_name: 'A'.repeat(22),
      company_name: 'B'.repeat(16),
      company_entry_description: 'ACCTVERIFY',
      account_number: '1'.repeat(17),
    };
    expect((await create('ach_transfers', { ...CREDIT, ...widest })).status).toBe(200);
    expect((await create('ach_prenotifications', { ...PRENOTE, account_number: '1' })).status).toBe(200);
  });

  it('refuses an idempotency key over 200 characters, and answers 409 naming the first object for a key used again', async () => {
    expect((await create('ach_prenotifications', PRENOTE, 'k'.repeat(201))).status).toBe(400);
    const first = await create('ach_prenotifications', PRENOTE, 'fake-409');
    const again = await create('ach_prenotifications', PRENOTE, 'fake-409');
    expect(again).toEqual({ status: 200, body: first.body });
    const otherBody = await create('ach_prenotifications', { ...PRENOTE, account_number: '87654321' }, 'fake-409');
    expect(otherBody).toMatchObject({
      status: 409,
      body: { type: 'idempotency_key_already_used_error', resource_id: first.body.id },
    });
    // Keys are unique across Increase: the same key on another kind of object is taken too.
    const otherKind = await create('ach_transfers', CREDIT, 'fake-409');
    expect(otherKind).toMatchObject({ status: 409, body: { resource_id: first.body.id } });
  });
});

describe('the Increase fake walks Increase’s lifecycle', () => {
  it('a transfer waits in pending_submission (pending_approval when approvals are required) until Increase submits it', async () => {
    const quiet = await FakeIncrease.start();
    try {
      const post = (body: object) =>
        fetch(`${quiet.url}/ach_transfers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${quiet.options.apiKey}` },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ id: string; status: string }>);
      const plain = await post(CREDIT);
      const held = await post({ ...CREDIT, require_approval: true });
      expect([plain.status, held.status]).toEqual(['pending_submission', 'pending_approval']);
      quiet.submitTransfers();
      expect(quiet.transfers.get(plain.id)?.status).toBe('submitted');
      expect(quiet.transfers.get(held.id)?.status).toBe('pending_approval');
      expect(quiet.stopTransfer(held.id, 'rejected').status).toBe('rejected');
      expect(quiet.returnTransfer(plain.id, 'no_account')).toMatchObject({
        status: 'returned',
        return: { return_reason_code: 'no_account', raw_return_reason_code: 'R03', transfer_id: plain.id },
      });
    } finally {
      await quiet.stop();
    }
  });

  it('a notification of change leaves the prenotification submitted, with the change and its corrected data', async () => {
    const answer = await create('ach_prenotifications', PRENOTE);
    const prenote = fake.notifyOfChange(String(answer.body.id), 'incorrect_account_number');
    expect(prenote).toMatchObject({
      status: 'submitted',
      prenotification_return: null,
      notifications_of_change: [{ change_code: 'incorrect_account_number', corrected_account_number: '12340000' }],
    });
  });

  it('signs a webhook about a transfer as ach_transfer.updated', async () => {
    const notice = fake.webhookFor('ach_transfer_77');
    expect(JSON.parse(notice.body)).toMatchObject({
      category: 'ach_transfer.updated',
      associated_object_id: 'ach_transfer_77',
    });
  });
});

describe('the Increase fake’s receiving banks, beyond the sandbox’s numbers', WAITS_FOR_NOTICES, () => {
  it.each([
    ['6666', 'incorrect_account_number'],
    ['7777', 'incorrect_transaction_code'],
  ])(
    'answer both prenotifications to an account ending %s with a notification of change (%s), and tell of it',
    async (suffix, change) => {
      const account = accountEnding(suffix);
      await bank.checkAccount(account, 1);
      for (const kind of ['status', 'debit']) {
        const prenote = fake.prenotificationByKey(`tenant-alice.${account.id}.${kind}.1`);
        expect(prenote?.status).toBe('submitted');
        expect(prenote?.notifications_of_change.map((noc) => noc.change_code)).toEqual([change]);
      }
      const ids = (['status', 'debit'] as const).map(
        (kind) => fake.prenotificationByKey(`tenant-alice.${account.id}.${kind}.1`)?.id,
      );
      await expect
        .poll(() => fake.notices.filter((notice) => ids.includes(notice.objectId)).length, NOTICE_WAIT)
        .toBe(2);
    },
  );

  it('return the statement credit to an account ending 8888 (R23), and tell of it; credits to others are submitted', async () => {
    const refused = accountEnding('8888');
    const taken = accountEnding('6789');
    await bank.sendStatementCredit(refused, 'Acme');
    await bank.sendStatementCredit(taken, 'Acme');
    const [returned, submitted] = [refused, taken].map((account) =>
      [...fake.transfers.values()].find((transfer) => transfer.account_number === account.account_number),
    );
    expect(returned).toMatchObject({
      status: 'returned',
      return: { return_reason_code: 'credit_entry_refused_by_receiver' },
    });
    expect(submitted?.status).toBe('submitted');
    await expect.poll(() => fake.notices.some((notice) => notice.objectId === returned?.id), NOTICE_WAIT).toBe(true);
  });
});
