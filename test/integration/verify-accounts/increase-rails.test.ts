import { describe, expect, it } from 'vitest';
import { bankWaits } from '#shared/db/verify-accounts/index';
import { captureMetrics, countOf } from '#test/support/metrics';
import { CLOSED, storedItem, useIncreaseRails } from './support';

/**
 * Real rails through the Increase adapter, end to end on the local runtime and a local
 * fake of Increase (docs/api.md#real-rails): the worker sends the prenotifications, a
 * signed notice of a return is read by the adapter and applied (once, however often it
 * comes), a window ended with no return makes the account valid, and the statement code
 * Increase carried in the credit proves control.
 */
const metrics = captureMetrics();
const {
  env,
  created,
  account,
  increase,
  createdLongAgo,
  windowsEnded,
  validAfterItsWindow,
  delivered,
  returnedNotice,
} = useIncreaseRails();

describe('real rails through Increase', () => {
  it('sends both prenotifications once and keeps the account pending', async () => {
    const id = await created();
    expect(await account(id)).toMatchObject({ verification_status: 'pending', debit_status: 'pending' });
    expect(increase.fake.createdPerKey.get(`tenant-alice.${id}.status.1`)).toBe(1);
    expect(increase.fake.createdPerKey.get(`tenant-alice.${id}.debit.1`)).toBe(1);
  });

  it('a status prenotification returned R02 closes the account; the notice told twice changes it once', async () => {
    const id = await created();
    const notice = returnedNotice(id, 'status', 'account_closed');
    await delivered(notice);
    await delivered(notice);
    // Increase sends a new event for a later update of the same prenotification, too.
    await delivered(
      increase.fake.webhookFor(increase.fake.prenotificationByKey(`tenant-alice.${id}.status.1`)?.id as string),
    );
    expect(await account(id)).toMatchObject(CLOSED);
    expect((await storedItem(env.runtime, 'tenant-alice', id))?.version).toBe(2);
  });

  it('a debit prenotification returned R16, then the window ends: valid, debits blocked', async () => {
    const id = await createdLongAgo();
    await delivered(returnedNotice(id, 'debit', 'account_frozen_entry_returned_per_ofac_instruction'));
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
    await windowsEnded();
    expect(await account(id)).toMatchObject({
      verification_status: 'valid',
      debit_status: 'blocked',
      debit_status_reason: 'blocked_account',
    });
  });

  it('a prenotification Increase held and never sent proves nothing: at the window’s end the account is failed, not valid', async () => {
    const id = await createdLongAgo();
    increase.fake.holdPrenotification(increase.fake.prenotificationByKey(`tenant-alice.${id}.status.1`)?.id as string);
    await windowsEnded();
    expect(await account(id)).toMatchObject({
      verification_status: 'failed',
      status_reason: 'unexpected_error',
      debit_status: 'failed',
    });
  });

  it('a control account gets the one-cent credit after the window, and its code proves control', async () => {
    const id = await validAfterItsWindow({ type: 'control' });
    expect(await account(id)).toMatchObject({ verification_status: 'valid', control_status: 'pending' });
    const credits = [...increase.fake.transfers.values()].filter(
      (t) => t.idempotency_key === `tenant-alice.${id}.credit.1`,
    );
    expect(credits).toHaveLength(1);
    expect(credits[0]?.company_entry_description).toBe('ACCTVERIFY');
    const code = credits[0]?.company_name?.slice(-4);
    const answer = await env.clients.alice.post(`/verify/accounts/${id}/control`, { statement_code: code });
    expect(answer.body).toMatchObject({ account: { control_status: 'valid' } });
  });

  it('a late or repeated notice about the first debit prenotification does not decide the re-check that replaced it', async () => {
    const id = await validAfterItsWindow();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', debit_status: 'valid' });
    expect((await env.clients.alice.post(`/verify/accounts/${id}/debits`, {})).status).toBe(200);
    await env.runtime.settle();
    const first = increase.fake.prenotificationByKey(`tenant-alice.${id}.debit.1`);
    const recheck = [...increase.fake.prenotifications.values()].find(
      (p) => p.idempotency_key?.startsWith(`tenant-alice.${id}.debit.`) && p.id !== first?.id,
    );
    expect(recheck).toBeDefined();

    increase.fake.returnPrenotification(first?.id as string, 'payment_stopped');
    await delivered(increase.fake.webhookFor(first?.id as string));
    expect(await account(id)).toMatchObject({ debit_status: 'pending' });

    increase.fake.returnPrenotification(recheck?.id as string, 'account_frozen_entry_returned_per_ofac_instruction');
    await delivered(increase.fake.webhookFor(recheck?.id as string));
    expect(await account(id)).toMatchObject({ debit_status: 'blocked', debit_status_reason: 'blocked_account' });
  });

  it('a return marked by a delivery that died before settling the account is settled by Increase’s retry', async () => {
    const id = await created();
    const prenote = increase.fake.prenotificationByKey(`tenant-alice.${id}.status.1`);
    increase.fake.returnPrenotification(prenote?.id as string, 'account_closed');
    // The first delivery got as far as marking the return on its check, then its function died.
    const wait = (await bankWaits().of('tenant-alice', id)).find((check) => check.kind === 'status');
    const check = { tenant: 'tenant-alice', id, kind: 'status' as const, reference: wait?.reference as string };
    expect(
      await bankWaits().markReturned(check, { verification_status: 'closed', status_reason: 'closed_account' }),
    ).toBe(true);
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
    await delivered(increase.fake.webhookFor(prenote?.id as string));
    expect(await account(id)).toMatchObject({ verification_status: 'closed', status_reason: 'closed_account' });
  });

  it('a statement credit the holder’s bank returned cancels control, with an event, counted once; its code no longer proves it', async () => {
    const id = await validAfterItsWindow({ type: 'control' });
    const credit = increase.fake.transferByKey(`tenant-alice.${id}.credit.1`);
    expect(await account(id)).toMatchObject({ verification_status: 'valid', control_status: 'pending' });
    increase.fake.returnTransfer(credit?.id as string, 'credit_entry_refused_by_receiver');
    const notice = increase.fake.webhookFor(credit?.id as string);
    await delivered(notice);
    await delivered(notice);
    expect(await account(id)).toMatchObject({ verification_status: 'valid', control_status: 'canceled' });
    const answer = await env.clients.alice.post(`/verify/accounts/${id}/control`, {
      statement_code: credit?.company_name?.slice(-4),
    });
    expect(answer.body).toMatchObject({ error_code: 'control_canceled' });
    // Valid (version 2), control canceled (3): the repeated notice wrote nothing.
    expect((await storedItem(env.runtime, 'tenant-alice', id))?.version).toBe(3);
    expect(countOf(metrics, 'StatementCreditReturned')).toBe(1);
  });

  it('a forged notice is refused and changes nothing', async () => {
    const id = await created();
    const prenote = increase.fake.prenotificationByKey(`tenant-alice.${id}.status.1`);
    increase.fake.returnPrenotification(prenote?.id as string, 'account_closed');
    const forged = increase.fake.webhookFor(prenote?.id as string, { signedWith: 'guessed' });
    await expect(delivered(forged)).rejects.toThrow(/not a notice from Increase/);
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
  });
});
