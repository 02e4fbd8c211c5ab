import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_CODE_PATTERN } from '#domain/verify-account';
import { FakeIncrease } from '#lib/local/fake-increase';
import { type BankAccountCheckRef, BankNoticeRefused, type PendingCheck } from '#shared/bank/bank-provider';
import { IncreaseBank } from '#shared/bank/increase/increase-bank';
import { ConfigError } from '#shared/config';

/**
 * The Increase adapter against a local fake of Increase's API (lib/local/fake-increase.ts):
 * what it sends, what a signed notice of a return becomes, and that a retried request never
 * sends an entry twice.
 */

const MONDAY = new Date('2026-11-16T10:00:00.000Z');
let fake: FakeIncrease;
let bank: IncreaseBank;
let counter = 0;

beforeAll(async () => {
  fake = await FakeIncrease.start({ now: () => MONDAY });
  bank = bankFor(fake);
});
afterAll(() => fake.stop());

const bankFor = (server: FakeIncrease, over: { apiKey?: string } = {}) =>
  new IncreaseBank({
    apiKey: over.apiKey ?? server.options.apiKey,
    webhookSecret: server.options.webhookSecret,
    accountId: 'account_in71c4amph0vgo2qllky',
    baseURL: server.url,
  });

const accountRef = (): BankAccountCheckRef => ({
  tenant: 'tenant-alice',
  id: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  routing_number: '021000021',
  account_number: `98765${String(counter).padStart(6, '0')}`,
  account_holder_name: 'Jane Doe',
});

const pending = async (account: BankAccountCheckRef) => (await bank.checkAccount(account, 1)) as PendingCheck;

/** The notice Increase sends when the prenotification sent with `key` is returned. */
function returned(key: string, reason: Parameters<FakeIncrease['returnPrenotification']>[1]) {
  const prenote = fake.prenotificationByKey(key);
  if (!prenote) throw new Error(`nothing sent with ${key}`);
  fake.returnPrenotification(prenote.id, reason);
  return fake.webhookFor(prenote.id);
}

describe('IncreaseBank.checkAccount', () => {
  it('sends a credit and a debit prenotification, keyed by tenant, account and attempt, and waits for their window', async () => {
    const account = accountRef();
    const answer = await pending(account);

    const status = fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`);
    const debit = fake.prenotificationByKey(`tenant-alice.${account.id}.debit.1`);
    expect(status).toMatchObject({
      credit_debit_indicator: 'credit',
      account_id: 'account_in71c4amph0vgo2qllky',
      account_number: account.account_number,
      routing_number: '021000021',
      individual_name: 'Jane Doe',
    });
    expect(debit).toMatchObject({ credit_debit_indicator: 'debit', account_number: account.account_number });
    expect(answer).toEqual({
      pending: true,
      provider: 'increase',
      references: { status: status?.id, debit: debit?.id },
      // Sent on Monday: Tuesday, Wednesday and Thursday may bring a return.
      windowEndsAt: new Date('2026-11-20T00:00:00.000Z'),
    });
  });

  it('sends nothing twice when asked again for the same attempt, and sends anew for the next', async () => {
    const account = accountRef();
    const first = await pending(account);
    expect(await pending(account)).toEqual(first);
    expect(fake.createdPerKey.get(`tenant-alice.${account.id}.status.1`)).toBe(1);
    expect(fake.createdPerKey.get(`tenant-alice.${account.id}.debit.1`)).toBe(1);
    const second = (await bank.checkAccount(account, 2)) as PendingCheck;
    expect(second.references.status).not.toBe(first.references.status);
  });

  it('retries a 503 or a 429 with the same key: one prenotification each, even when the answer was lost', async () => {
    const account = accountRef();
    fake.failNext(1, 503, { afterWork: true });
    fake.failNext(1, 429);
    fake.failNext(1, 503);
    const answer = await pending(account);
    const keys = [`tenant-alice.${account.id}.status.1`, `tenant-alice.${account.id}.debit.1`];
    // Two prenotifications, three faults: five requests, each retry with its first key.
    expect(fake.requests.filter((r) => keys.includes(r.idempotencyKey ?? ''))).toHaveLength(5);
    expect(fake.createdPerKey.get(`tenant-alice.${account.id}.status.1`)).toBe(1);
    expect(fake.createdPerKey.get(`tenant-alice.${account.id}.debit.1`)).toBe(1);
    expect(answer.references.status).toBe(fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id);
  });

  it('fails without the account number or the API key in the error', async () => {
    const account = accountRef();
    const refused = bankFor(fake, { apiKey: 'wrong-key-1234' });
    const error = (await refused.checkAccount(account, 1).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/401/);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toMatch(
      new RegExp(`${account.account_number}|wrong-key-1234|${fake.options.apiKey}`),
    );
  });
});

describe('IncreaseBank: the entry class of the receiver', () => {
  it('sends a person’s account consumer entries (PPD) and a business’s corporate ones (CCD)', async () => {
    const person = accountRef();
    await pending(person);
    const business = { ...accountRef(), business: { business_name: 'Acme LLC' } };
    await pending(business);
    for (const kind of ['status', 'debit']) {
      expect(fake.prenotificationByKey(`tenant-alice.${person.id}.${kind}.1`)?.standard_entry_class_code).toBe(
        'prearranged_payments_and_deposit',
      );
      expect(fake.prenotificationByKey(`tenant-alice.${business.id}.${kind}.1`)?.standard_entry_class_code).toBe(
        'corporate_credit_or_debit',
      );
    }
  });
});

describe('IncreaseBank.checkDebits', () => {
  it('sends one debit prenotification keyed by the attempt', async () => {
    const account = accountRef();
    const answer = (await bank.checkDebits(account, 3)) as PendingCheck;
    const debit = fake.prenotificationByKey(`tenant-alice.${account.id}.debit.3`);
    expect(debit?.credit_debit_indicator).toBe('debit');
    expect(answer.references).toEqual({ debit: debit?.id });
    expect(fake.prenotificationByKey(`tenant-alice.${account.id}.status.3`)).toBeUndefined();
  });
});

describe('IncreaseBank.confirmSilence, at the end of a return window', () => {
  it('a prenotification submitted and never returned is a silence; one still waiting to be sent, or held, is unsent', async () => {
    const account = accountRef();
    const answer = await pending(account);
    const status = answer.references.status as string;
    expect(await bank.confirmSilence('status', status)).toBe('unsent');
    fake.submitPrenotifications();
    expect(await bank.confirmSilence('status', status)).toBe('silent');
    fake.holdPrenotification(status);
    expect(await bank.confirmSilence('status', status)).toBe('unsent');
  });

  it('a return Increase recorded but never told of counts: what its code sets', async () => {
    const account = accountRef();
    const answer = await pending(account);
    fake.returnPrenotification(answer.references.debit as string, 'account_frozen_entry_returned_per_ofac_instruction');
    expect(await bank.confirmSilence('debit', answer.references.debit as string)).toEqual({
      debit_status: 'blocked',
      debit_status_reason: 'blocked_account',
    });
  });
});

describe('IncreaseBank.readNotice', () => {
  it('a status prenotification returned R02 (account_closed): the account is closed, debits failed', async () => {
    const account = accountRef();
    await pending(account);
    const notice = returned(`tenant-alice.${account.id}.status.1`, 'account_closed');
    expect(await bank.readNotice(notice.body, notice.headers)).toEqual([
      {
        tenant: 'tenant-alice',
        id: account.id,
        kind: 'status',
        returned: {
          verification_status: 'closed',
          status_reason: 'closed_account',
          debit_status: 'failed',
          debit_status_reason: 'closed_account',
        },
      },
    ]);
  });

  it('a debit prenotification returned R16 (frozen): debits blocked', async () => {
    const account = accountRef();
    await pending(account);
    const notice = returned(`tenant-alice.${account.id}.debit.1`, 'account_frozen_entry_returned_per_ofac_instruction');
    expect(await bank.readNotice(notice.body, notice.headers)).toEqual([
      {
        tenant: 'tenant-alice',
        id: account.id,
        kind: 'debit',
        returned: { debit_status: 'blocked', debit_status_reason: 'blocked_account' },
      },
    ]);
  });

  it('tells nothing of a prenotification not returned, of other events, or of prenotifications it did not send', async () => {
    const account = accountRef();
    const { references } = await pending(account);
    const quiet = fake.webhookFor(references.status as string);
    expect(await bank.readNotice(quiet.body, quiet.headers)).toEqual([]);
    const other = fake.webhookFor('ach_transfer_1', { category: 'ach_transfer.updated' });
    expect(await bank.readNotice(other.body, other.headers)).toEqual([]);

    // Another sender on the same Increase organisation, with a key of its own.
    const foreign = await fetch(`${fake.url}/ach_prenotifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.options.apiKey}`, 'idempotency-key': `x.${account.id}.status.1` },
      body: JSON.stringify({ account_id: 'account_other', account_number: '1', routing_number: '021000021' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    fake.returnPrenotification(foreign.id, 'account_closed');
    const notice = fake.webhookFor(foreign.id);
    expect(await bank.readNotice(notice.body, notice.headers)).toEqual([]);
  });

  it('refuses a notice signed with another secret, a stale one, and one without signature: BankNoticeRefused', async () => {
    const account = accountRef();
    await pending(account);
    const good = returned(`tenant-alice.${account.id}.status.1`, 'account_closed');
    const forged = fake.webhookFor(fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id as string, {
      signedWith: 'not-the-secret',
    });
    const stale = fake.webhookFor(fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id as string, {
      at: new Date(Date.now() - 6 * 60_000),
    });
    await expect(bank.readNotice(forged.body, forged.headers)).rejects.toBeInstanceOf(BankNoticeRefused);
    await expect(bank.readNotice(stale.body, stale.headers)).rejects.toBeInstanceOf(BankNoticeRefused);
    await expect(bank.readNotice(good.body, {})).rejects.toBeInstanceOf(BankNoticeRefused);
    // The body altered under a good signature.
    await expect(bank.readNotice(good.body.replace('event', 'evenT'), good.headers)).rejects.toBeInstanceOf(
      BankNoticeRefused,
    );
    await expect(bank.readNotice(good.body, good.headers)).resolves.toHaveLength(1);
  });
});

describe('IncreaseBank.checkOwnership', () => {
  it('answers not_found for every supplied field: ACH carries no ownership', async () => {
    expect(
      await bank.checkOwnership(accountRef(), {
        person: { first_name: 'Jane', last_name: 'Doe', phone_number: '+15555550100', ssn: '123456789' },
      }),
    ).toEqual({
      person: {
        first_name_match: 'not_found',
        last_name_match: 'not_found',
        phone_number_match: 'not_found',
        ssn_match: 'not_found',
      },
    });
    expect(await bank.checkOwnership(accountRef(), { business: { business_name: 'Acme' } })).toEqual({
      business: { business_name_match: 'not_found' },
    });
  });
});

describe('IncreaseBank.sendStatementCredit', () => {
  it('sends 1 cent to the holder with the statement code in the entry description', async () => {
    const account = accountRef();
    const credit = await bank.sendStatementCredit(account, 'Acme Payroll', account.id);
    expect(credit.statementCode).toMatch(STATEMENT_CODE_PATTERN);
    expect(credit.sentAt).toEqual(MONDAY);
    const [transfer] = [...fake.transfers.values()].filter((t) => t.account_number === account.account_number);
    expect(transfer).toMatchObject({
      amount: 1,
      account_id: 'account_in71c4amph0vgo2qllky',
      routing_number: '021000021',
      individual_name: 'Jane Doe',
      company_name: 'Acme Payroll',
    });
    expect(transfer?.company_entry_description).toContain(credit.statementCode);
    expect(transfer?.company_entry_description?.length).toBeLessThanOrEqual(10);
  });

  it('sent again with the same key, answers the first credit and its code: one transfer', async () => {
    const account = accountRef();
    const first = await bank.sendStatementCredit(account, undefined, account.id);
    fake.failNext(1, 503, { afterWork: true });
    const again = await bank.sendStatementCredit(account, undefined, account.id);
    expect(again).toEqual(first);
    expect(fake.createdPerKey.get(`${account.id}.statement-credit`)).toBe(1);
    expect([...fake.transfers.values()].filter((t) => t.account_number === account.account_number)).toHaveLength(1);
  });

  it('fits Nacha field widths: a long holder or sender name is cut, not refused', async () => {
    const account = { ...accountRef(), account_holder_name: 'Maximiliana Alexandrova-Konstantinopoulou' };
    await expect(bank.sendStatementCredit(account, 'A sender name far too long', account.id)).resolves.toBeDefined();
  });
});

describe('IncreaseBank without the webhook secret (a function that reads no notices is not given it)', () => {
  it('sends and re-fetches prenotifications as ever, but refuses a notice with a ConfigError naming the missing secret, never taking it for a forged one', async () => {
    const sender = new IncreaseBank({
      apiKey: fake.options.apiKey,
      accountId: 'account_in71c4amph0vgo2qllky',
      baseURL: fake.url,
    });
    const account = accountRef();
    const { references } = (await sender.checkAccount(account, 1)) as PendingCheck;
    await expect(sender.confirmSilence('status', references.status as string)).resolves.toBe('unsent');

    const notice = returned(`tenant-alice.${account.id}.status.1`, 'account_closed');
    const refusal = sender.readNotice(notice.body, notice.headers);
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    await expect(refusal).rejects.toThrow(/webhook secret.*BANK_WEBHOOK_SECRET_ARN/);
    await expect(refusal).rejects.not.toThrow(fake.options.apiKey);
  });
});
