import { describe, expect, it } from 'vitest';
import type { FakeIncrease } from '#lib/local/fake-increase';
import { captureMetrics, countOf } from '#test/support/metrics';
import { CLOSED, storedItem, useIncreaseRails } from './support';

/**
 * Notices about an entry whose check was decided already, through the Increase adapter and
 * its fake (docs/api.md#real-rails): a statement credit returned once its code expired, and
 * a prenotification that tells twice, a notification of change and a return. What decided
 * first stands: the later notice changes nothing, so the partner hears of no change.
 */
const metrics = captureMetrics();
const { env, created, account, increase, createdLongAgo, windowsEnded, validAfterItsWindow, delivered } =
  useIncreaseRails();

const DAY_MS = 24 * 3600_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const version = async (id: string) => (await storedItem(env.runtime, 'tenant-alice', id))?.version;

/** The statement credit sent to a control account whose code was sent 6 days ago: expired (5 days). */
async function expiredCredit() {
  const id = await validAfterItsWindow({ type: 'control' }, { creditSentAt: daysAgo(6) });
  const credit = increase.fake.transferByKey(`tenant-alice.${id}.credit.1`);
  if (!credit) throw new Error(`no credit sent to ${id}`);
  return { id, credit };
}

async function expiryRan(): Promise<void> {
  await env.runtime.runSchedule('StatementCodeExpiry');
  await env.runtime.settle();
}

/** The holder's bank returns the credit, saying there is no such account (R03), and Increase's notice of it is taken. */
async function returnedNoAccount(credit: { id: string }): Promise<void> {
  increase.fake.returnTransfer(credit.id, 'no_account');
  await delivered(increase.fake.webhookFor(credit.id));
}

/** Control canceled by the expiry alone: the account's statuses as they were, no return counted. */
async function expectCanceledByTheExpiryAlone(id: string): Promise<void> {
  expect(await account(id)).toMatchObject({
    verification_status: 'valid',
    debit_status: 'valid',
    control_status: 'canceled',
  });
  // Valid with its credit (version 2), control canceled by the expiry (3): the return wrote nothing.
  expect(await version(id)).toBe(3);
  expect(countOf(metrics, 'StatementCreditReturned')).toBe(0);
}

describe('a statement credit returned after its code expired', () => {
  it('once the expiry canceled control, a return saying the account is gone (R03) changes nothing: still valid, no event, not counted', async () => {
    const { id, credit } = await expiredCredit();
    await expiryRan();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', control_status: 'canceled' });

    await returnedNoAccount(credit);

    await expectCanceledByTheExpiryAlone(id);
  });

  it('expired but not yet canceled by the hourly expiry, it changes nothing either: the expiry cancels control, once, and the account stays valid', async () => {
    const { id, credit } = await expiredCredit();

    await returnedNoAccount(credit);
    // Expired 5 days after it was sent, whether or not the expiry has run yet.
    const submitted = await env.clients.alice.post(`/verify/accounts/${id}/control`, {
      statement_code: credit.company_name?.slice(-4),
    });
    expect(submitted.body).toMatchObject({ error_code: 'control_canceled' });
    await expiryRan();

    await expectCanceledByTheExpiryAlone(id);
  });
});

/** What a notification of change correcting the account number (C01) makes of the account. */
const INVALID_AS_GIVEN = {
  verification_status: 'invalid',
  status_reason: 'invalid_account',
  debit_status: 'failed',
  debit_status_reason: 'invalid_account',
} as const;

/** What it makes of the debits alone, on the debit prenotification. */
const DEBITS_FAILED_AS_GIVEN = { debit_status: 'failed', debit_status_reason: 'invalid_account' } as const;

type ChangeCode = Parameters<FakeIncrease['notifyOfChange']>[1];
type ReturnReason = Parameters<FakeIncrease['returnPrenotification']>[1];

/** The account's prenotification of `kind`: the first check's, or a re-check's (`attempt`, the account's version when it asked). */
function prenotificationOf(id: string, kind: 'status' | 'debit', attempt = 1) {
  const prenote = increase.fake.prenotificationByKey(`tenant-alice.${id}.${kind}.${attempt}`);
  if (!prenote) throw new Error(`no ${kind} prenotification ${attempt} for ${id}`);
  const { fake } = increase;
  /** Done on `date` (the fake's clock then back to now). */
  const on = (date: Date, act: () => unknown) => {
    fake.options.now = () => date;
    act();
    fake.options.now = () => new Date();
  };
  return {
    /** The receiving bank posts it and asks for a change, on `date`. */
    changed: (code: ChangeCode, date: Date) => on(date, () => fake.notifyOfChange(prenote.id, code)),
    /** The receiving bank returns it, on `date`. */
    returned: (reason: ReturnReason, date: Date) => on(date, () => fake.returnPrenotification(prenote.id, reason)),
    /** Increase's notice of it as it stands reaches the service. */
    told: () => delivered(fake.webhookFor(prenote.id)),
  };
}

describe('a prenotification that tells twice: a notification of change, then a return', () => {
  it.each([
    [
      'correcting the account number (C01), told when it came',
      'incorrect_account_number',
      INVALID_AS_GIVEN,
      INVALID_AS_GIVEN,
    ],
    [
      'correcting the account number (C01), whose notice never came',
      'incorrect_account_number',
      undefined,
      INVALID_AS_GIVEN,
    ],
    [
      'correcting only the type (C05), which decides nothing',
      'incorrect_transaction_code',
      { verification_status: 'pending' },
      CLOSED,
    ],
  ] as const)(
    'a notification of change %s, then a return: the first that decides the check decides it, once',
    async (_, code, afterChange, decided) => {
      const id = await created();
      const status = prenotificationOf(id, 'status');
      status.changed(code, daysAgo(1));
      if (afterChange) {
        await status.told();
        expect(await account(id)).toMatchObject(afterChange);
      }
      status.returned('account_closed', new Date());

      await status.told();

      expect(await account(id)).toMatchObject(decided);
      // Created (1), settled once (2).
      expect(await version(id)).toBe(2);
    },
  );

  it('neither notice ever came: at the window’s end the change decides too, being the earlier', async () => {
    const id = await createdLongAgo();
    const status = prenotificationOf(id, 'status');
    status.changed('incorrect_account_number', daysAgo(9));
    status.returned('account_closed', daysAgo(8));

    await windowsEnded();

    expect(await account(id)).toMatchObject(INVALID_AS_GIVEN);
  });

  it('on the debit prenotification, the change kept while the status waits stands against a later return of it: valid, debits failed as the change says', async () => {
    const id = await createdLongAgo();
    const debit = prenotificationOf(id, 'debit');
    debit.changed('incorrect_account_number', daysAgo(9));
    await debit.told();
    debit.returned('account_frozen_entry_returned_per_ofac_instruction', daysAgo(8));
    await debit.told();
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });

    await windowsEnded();

    expect(await account(id)).toMatchObject({ verification_status: 'valid', ...DEBITS_FAILED_AS_GIVEN });
  });

  it('after a change failed the debits, a re-check’s own prenotification decides them anew; a late return of the first changes nothing', async () => {
    const id = await createdLongAgo();
    const first = prenotificationOf(id, 'debit');
    first.changed('incorrect_account_number', daysAgo(9));
    await first.told();
    await windowsEnded();
    expect(await account(id)).toMatchObject(DEBITS_FAILED_AS_GIVEN);

    expect((await env.clients.alice.post(`/verify/accounts/${id}/debits`, {})).status).toBe(200);
    await env.runtime.settle();
    const recheck = prenotificationOf(id, 'debit', 3);
    recheck.returned('payment_stopped', new Date());
    await recheck.told();
    expect(await account(id)).toMatchObject({ debit_status: 'blocked', debit_status_reason: 'debit_blocked' });

    first.returned('account_frozen_entry_returned_per_ofac_instruction', new Date());
    await first.told();

    expect(await account(id)).toMatchObject({ debit_status: 'blocked', debit_status_reason: 'debit_blocked' });
    // Created (1), valid with debits failed (2), re-check pending (3), blocked (4): the late return wrote nothing.
    expect(await version(id)).toBe(4);
  });
});
