import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_CODE_PATTERN } from '#domain/verify-account';
import { FakeIncrease } from '#lib/local/fake-increase';
import { REPO_ROOT } from '#lib/repo-root';
import { type BankAccountCheckRef, BankNoticeRefused, type PendingCheck } from '#shared/bank/bank-provider';
import { IncreaseBank, NOTICE_CATEGORIES } from '#shared/bank/increase/increase-bank';
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

const bankOptions = (server: FakeIncrease) => ({
  apiKey: server.options.apiKey,
  webhookSecret: server.options.webhookSecret,
  accountId: 'account_in71c4amph0vgo2qllky',
  baseURL: server.url,
});
const bankFor = (server: FakeIncrease, over: { apiKey?: string } = {}) =>
  new IncreaseBank({ ...bankOptions(server), ...over });

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
        reference: fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id,
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
        reference: fake.prenotificationByKey(`tenant-alice.${account.id}.debit.1`)?.id,
        returned: { debit_status: 'blocked', debit_status_reason: 'blocked_account' },
      },
    ]);
  });

  it('a notification of change correcting the account number: the account as given is invalid (C01), its debits failed', async () => {
    const account = accountRef();
    await pending(account);
    const status = fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id as string;
    const debit = fake.prenotificationByKey(`tenant-alice.${account.id}.debit.1`)?.id as string;
    fake.notifyOfChange(status, 'incorrect_account_number');
    fake.notifyOfChange(debit, 'incorrect_routing_number');
    const statusNotice = fake.webhookFor(status);
    const debitNotice = fake.webhookFor(debit);
    expect(await bank.readNotice(statusNotice.body, statusNotice.headers)).toEqual([
      {
        tenant: 'tenant-alice',
        id: account.id,
        kind: 'status',
        reference: status,
        returned: {
          verification_status: 'invalid',
          status_reason: 'invalid_account',
          debit_status: 'failed',
          debit_status_reason: 'invalid_account',
        },
      },
    ]);
    expect(await bank.readNotice(debitNotice.body, debitNotice.headers)).toEqual([
      {
        tenant: 'tenant-alice',
        id: account.id,
        kind: 'debit',
        reference: debit,
        returned: { debit_status: 'failed', debit_status_reason: 'invalid_routing' },
      },
    ]);
  });

  it('a notification of change correcting only the account’s type (C05, a savings account) tells nothing: valid as given', async () => {
    const account = accountRef();
    await pending(account);
    const status = fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.id as string;
    fake.notifyOfChange(status, 'incorrect_transaction_code');
    const notice = fake.webhookFor(status);
    expect(await bank.readNotice(notice.body, notice.headers)).toEqual([]);
    expect(await bank.confirmSilence('status', status)).toBe('silent');
  });

  it('a notification of change never told counts at the window’s end, as a return does', async () => {
    const account = accountRef();
    const answer = await pending(account);
    fake.notifyOfChange(answer.references.status as string, 'incorrect_routing_number_and_account_number');
    expect(await bank.confirmSilence('status', answer.references.status as string)).toEqual({
      verification_status: 'invalid',
      status_reason: 'invalid_routing',
      debit_status: 'failed',
      debit_status_reason: 'invalid_routing',
    });
  });

  it('a prenotification returned after a notification of change that decides: the earlier decides, in its notice as at the window’s end', async () => {
    const account = accountRef();
    const status = (await pending(account)).references.status as string;
    fake.notifyOfChange(status, 'incorrect_account_number');
    fake.options.now = () => new Date(MONDAY.getTime() + 3600_000);
    fake.returnPrenotification(status, 'account_closed');
    fake.options.now = () => MONDAY;
    const invalid = {
      verification_status: 'invalid',
      status_reason: 'invalid_account',
      debit_status: 'failed',
      debit_status_reason: 'invalid_account',
    };
    const notice = fake.webhookFor(status);
    expect((await bank.readNotice(notice.body, notice.headers)).map((outcome) => outcome.returned)).toEqual([invalid]);
    expect(await bank.confirmSilence('status', status)).toEqual(invalid);
  });

  it('tells nothing of a prenotification of its own not returned', async () => {
    const account = accountRef();
    const { references } = await pending(account);
    const quiet = fake.webhookFor(references.status as string);
    expect(await bank.readNotice(quiet.body, quiet.headers)).toEqual([]);
  });

  it.each([
    [
      'an object Increase does not know (404 on the re-fetch)',
      'unknown_object',
      () => fake.webhookFor('ach_transfer_404'),
    ],
    [
      'a category the service does not read',
      'unused_category',
      () => fake.webhookFor('account_in71c4amph0vgo2qllky', { category: 'account.updated' }),
    ],
  ])(
    'ignores a signed notice about %s: BankNoticeIgnored (%s), never a failure Increase would retry for ever',
    async (_, reason, notice) => {
      const { body, headers } = notice();
      await expect(bank.readNotice(body, headers)).rejects.toMatchObject({ name: 'BankNoticeIgnored', reason });
    },
  );

  it('ignores a prenotification or a transfer it did not send (another sender on the same organisation): not_ours', async () => {
    const account = accountRef();
    const post = (path: string, body: object, key: string) =>
      fetch(`${fake.url}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.options.apiKey}`, 'idempotency-key': key },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const foreign = await post(
      'ach_prenotifications',
      { account_id: 'account_other', account_number: '1', routing_number: '021000021' },
      `x.${account.id}.status.1`,
    );
    fake.returnPrenotification(foreign.id, 'account_closed');
    const transfer = await post(
      'ach_transfers',
      {
        account_id: 'account_other',
        account_number: '1',
        routing_number: '021000021',
        amount: 1,
        statement_descriptor: 'x',
      },
      `tenant-alice.${account.id}.credit.1`,
    );
    fake.returnTransfer(transfer.id, 'no_account');
    for (const id of [foreign.id, transfer.id]) {
      const { body, headers } = fake.webhookFor(id);
      await expect(bank.readNotice(body, headers)).rejects.toMatchObject({
        name: 'BankNoticeIgnored',
        reason: 'not_ours',
      });
    }
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

describe('IncreaseBank.sendStatementCredit: a Micro-Entry as Nacha defines it', () => {
  const creditTo = (account: BankAccountCheckRef) =>
    fake.transferByKey(`tenant-alice.${account.id}.credit.1`) as NonNullable<ReturnType<FakeIncrease['transferByKey']>>;

  it('sends 1 cent described ACCTVERIFY, the code beside the sender’s name in the company name statements show', async () => {
    const account = accountRef();
    const credit = await bank.sendStatementCredit(account, 'Acme Pay');
    expect(credit.statementCode).toMatch(STATEMENT_CODE_PATTERN);
    expect(credit.sentAt).toEqual(MONDAY);
    expect(creditTo(account)).toMatchObject({
      amount: 1,
      account_id: 'account_in71c4amph0vgo2qllky',
      account_number: account.account_number,
      routing_number: '021000021',
      individual_name: 'Jane Doe',
      company_entry_description: 'ACCTVERIFY',
      company_name: `Acme Pay ${credit.statementCode}`,
    });
  });

  it('without a sender name, the deployment’s statement name carries the code; a long name is cut to leave it room', async () => {
    const plain = accountRef();
    const credit = await bank.sendStatementCredit(plain, undefined);
    expect(creditTo(plain).company_name).toBe(`VERIFY ${credit.statementCode}`);
    const named = new IncreaseBank({ ...bankOptions(fake), statementName: 'NORTHWIND' });
    const other = accountRef();
    const second = await named.sendStatementCredit(other, '  ');
    expect(creditTo(other).company_name).toBe(`NORTHWIND ${second.statementCode}`);
    const long = accountRef();
    const third = await bank.sendStatementCredit(long, 'Acme Payroll Services');
    expect(creditTo(long).company_name).toBe(`Acme Payrol ${third.statementCode}`);
  });

  it('goes in the entry class its prenotifications used: PPD to a person (individual), CCD to a business', async () => {
    const person = accountRef();
    await bank.sendStatementCredit(person, 'Acme');
    const business = { ...accountRef(), business: { business_name: 'Acme LLC' } };
    await bank.sendStatementCredit(business, 'Acme');
    expect(creditTo(person)).toMatchObject({
      standard_entry_class_code: 'prearranged_payments_and_deposit',
      destination_account_holder: 'individual',
    });
    expect(creditTo(business)).toMatchObject({
      standard_entry_class_code: 'corporate_credit_or_debit',
      destination_account_holder: 'business',
    });
  });

  it('sent again, answers the first credit and its code: one transfer, keyed by tenant and account', async () => {
    const account = accountRef();
    const first = await bank.sendStatementCredit(account, undefined);
    fake.failNext(1, 503, { afterWork: true });
    const again = await bank.sendStatementCredit(account, undefined);
    expect(again).toEqual(first);
    expect(fake.createdPerKey.get(`tenant-alice.${account.id}.credit.1`)).toBe(1);
    expect([...fake.transfers.values()].filter((t) => t.account_number === account.account_number)).toHaveLength(1);
  });

  it('told its credit was returned, cancels control, and says what the return says of the account', async () => {
    const closed = accountRef();
    const refused = accountRef();
    await bank.sendStatementCredit(closed, 'Acme');
    await bank.sendStatementCredit(refused, 'Acme');
    fake.returnTransfer(creditTo(closed).id, 'account_closed');
    fake.returnTransfer(creditTo(refused).id, 'credit_entry_refused_by_receiver');
    const [closedNotice, refusedNotice] = [closed, refused].map((account) => fake.webhookFor(creditTo(account).id));
    expect(await bank.readNotice(closedNotice!.body, closedNotice!.headers)).toEqual([
      {
        tenant: 'tenant-alice',
        id: closed.id,
        kind: 'credit',
        reference: creditTo(closed).id,
        returned: {
          control_status: 'canceled',
          verification_status: 'closed',
          status_reason: 'closed_account',
          debit_status: 'failed',
          debit_status_reason: 'closed_account',
        },
      },
    ]);
    expect(await bank.readNotice(refusedNotice!.body, refusedNotice!.headers)).toEqual([
      {
        tenant: 'tenant-alice',
        id: refused.id,
        kind: 'credit',
        reference: creditTo(refused).id,
        returned: { control_status: 'canceled' },
      },
    ]);
  });

  it('told Increase rejected its credit, cancels control; a credit submitted, held or awaiting approval tells nothing', async () => {
    const rejected = accountRef();
    await bank.sendStatementCredit(rejected, 'Acme');
    fake.stopTransfer(creditTo(rejected).id, 'rejected');
    const notice = fake.webhookFor(creditTo(rejected).id);
    expect(await bank.readNotice(notice.body, notice.headers)).toMatchObject([
      { id: rejected.id, kind: 'credit', returned: { control_status: 'canceled' } },
    ]);
    const quiet = accountRef();
    await bank.sendStatementCredit(quiet, 'Acme');
    for (const move of [
      () => fake.submitTransfers(),
      () => fake.stopTransfer(creditTo(quiet).id, 'requires_attention'),
    ]) {
      move();
      const told = fake.webhookFor(creditTo(quiet).id);
      expect(await bank.readNotice(told.body, told.headers)).toEqual([]);
    }
  });

  it('writes names in ASCII before cutting them to Nacha’s widths: accents folded, not refused by Increase', async () => {
    const account = { ...accountRef(), account_holder_name: 'Ünal Çelikkanat-Öztürkoğlu' };
    await bank.checkAccount(account, 1);
    expect(fake.prenotificationByKey(`tenant-alice.${account.id}.status.1`)?.individual_name).toBe(
      'Unal Celikkanat-Ozturk',
    );
    const { statementCode } = await bank.sendStatementCredit(account, 'Café Zürich');
    expect(creditTo(account)).toMatchObject({
      individual_name: 'Unal Celikkanat-Ozturk',
      company_name: `Cafe Zurich ${statementCode}`,
    });
  });

  it('fits Nacha field widths: a long holder or sender name is cut, not refused', async () => {
    const account = { ...accountRef(), account_holder_name: 'Maximiliana Alexandrova-Konstantinopoulou' };
    await expect(bank.sendStatementCredit(account, 'A sender name far too long')).resolves.toBeDefined();
  });
});

describe('the webhook subscription docs/deploy.md registers', () => {
  it('names exactly the event categories the adapter reads', () => {
    const page = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
    const named = [...page.matchAll(/"event_category": "([a-z_.]+)"/g)].map((m) => m[1]);
    expect(named.sort(), 'docs/deploy.md#real-rails-increase, step 3').toEqual([...NOTICE_CATEGORIES].sort());
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
