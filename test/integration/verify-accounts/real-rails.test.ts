import { describe, expect, it } from 'vitest';
import { applyBankOutcome } from '#functions/verify-accounts/bank-outcome';
import { completeVerification } from '#functions/verify-accounts/complete-verification';
import { bankWaits } from '#shared/db/verify-accounts/index';
import { createLogger } from '#shared/logger';
import { RailsBank } from '#test/support/rails-bank';
import { CLOSED, storedItem, useRailsRuntime } from './support';

/**
 * A bank on real rails (docs/api.md#real-rails), through the local runtime: an account
 * stays `pending` while its prenotifications are out; a status return settles it at once,
 * applied once however often it is told; no return by the end of the window makes it
 * valid (debits too, unless their own prenotification came back); a control account then
 * gets its credit; a repeated debit check waits the same way.
 */
let rails: RailsBank;
const { env, created, account, windowsEnded } = useRailsRuntime(() => {
  rails = new RailsBank();
  return rails;
});
const logger = createLogger({ test: 'real-rails' });
/** A debit prenotification returned for debits alone (RailsBank's reference of the first one by default). */
const debitBlocked = (id: string, reference = `pre-debit-${id}`) => ({
  tenant: 'tenant-alice',
  id,
  kind: 'debit' as const,
  reference,
  returned: { debit_status: 'blocked', debit_status_reason: 'debit_blocked' } as const,
});

/** An account whose prenotifications' window ended with no return told, settled by BankReturnWindows. */
async function settledAfterItsWindow(over: Record<string, unknown> = {}): Promise<string> {
  rails.windowEndsAt = new Date(Date.now() - 1000);
  const id = await created(over);
  await windowsEnded();
  return id;
}

/** An ownership verification of a person, with an SSN. */
const JANE_WITH_SSN = {
  type: 'status_ownership',
  person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' },
};
/** What an ownership account settled with no return is, when its bank matched nothing. */
const VALID_NOTHING_MATCHED = {
  verification_status: 'valid',
  ownership_status: 'not_found',
  person: { first_name_match: 'not_found', last_name_match: 'not_found' },
};

describe('real rails: an account waits for its prenotifications', () => {
  it('stays pending with both checks kept, sent once however often the worker runs', async () => {
    const id = await created();
    expect(await account(id)).toMatchObject({ verification_status: 'pending', debit_status: 'pending' });
    expect((await bankWaits().of('tenant-alice', id)).map((wait) => wait.kind).sort()).toEqual(['debit', 'status']);
    expect(rails.sent.filter((sent) => sent.id === id).every((sent) => sent.attempt === 1)).toBe(true);
  });

  it('a return kept on a check survives the worker running again for the account', async () => {
    const id = await created();
    await applyBankOutcome(debitBlocked(id), logger);
    // The verification message again (a redelivery): the checks are sent with the same key, and kept as they were.
    await completeVerification('tenant-alice', id, logger);
    const debit = (await bankWaits().of('tenant-alice', id)).find((wait) => wait.kind === 'debit');
    expect(debit?.returned).toEqual({ debit_status: 'blocked', debit_status_reason: 'debit_blocked' });
  });

  it('a status return settles it at once: closed, debits failed; told twice, applied once', async () => {
    const id = await created();
    const outcome = {
      tenant: 'tenant-alice',
      id,
      kind: 'status' as const,
      reference: `pre-status-${id}`,
      returned: CLOSED,
    };
    await applyBankOutcome(outcome, logger);
    await applyBankOutcome(outcome, logger);
    await env.runtime.settle();
    const settled = await account(id);
    expect(settled).toMatchObject(CLOSED);
    expect(await bankWaits().of('tenant-alice', id)).toEqual([]);
    // Created (version 1), settled once (version 2): the second notice wrote nothing.
    expect((await storedItem(env.runtime, 'tenant-alice', id))?.version).toBe(2);
  });

  it('no return by the end of the window: valid, and debits blocked when their own prenotification came back', async () => {
    rails.windowEndsAt = new Date(Date.now() - 1000);
    const quiet = await created();
    const blocked = await created();
    await applyBankOutcome(debitBlocked(blocked), logger);
    // A debit return alone waits for the status.
    expect(await account(blocked)).toMatchObject({ verification_status: 'pending' });
    await windowsEnded();
    expect(await account(quiet)).toMatchObject({ verification_status: 'valid', debit_status: 'valid' });
    expect(await account(blocked)).toMatchObject({
      verification_status: 'valid',
      debit_status: 'blocked',
      debit_status_reason: 'debit_blocked',
    });
  });

  it('a window whose prenotification the provider never sent settles nothing as valid: failed, unexpected_error', async () => {
    rails.silence = 'unsent';
    const id = await settledAfterItsWindow();
    expect(await account(id)).toMatchObject({
      verification_status: 'failed',
      status_reason: 'unexpected_error',
      debit_status: 'failed',
      debit_status_reason: 'unexpected_error',
    });
  });

  it('an ownership account settled at the end of its window by a bank that checks no ownership (as Increase): its SSN never opened, every field supplied not_found', async () => {
    const id = await settledAfterItsWindow(JANE_WITH_SSN);
    expect(await account(id)).toMatchObject(VALID_NOTHING_MATCHED);
    // The bank is told an SSN was supplied (so it answers its field), never what it is.
    const claims = rails.ownershipClaims.get(id);
    expect(claims?.person?.ssn).toEqual(expect.any(String));
    expect(JSON.stringify(claims)).not.toContain('078051120');
  });

  it('an ownership account settled at the end of its window by a bank on rails that checks ownership: its SSN opened for the bank', async () => {
    rails.checksOwnership = true;
    const id = await settledAfterItsWindow(JANE_WITH_SSN);
    expect(await account(id)).toMatchObject(VALID_NOTHING_MATCHED);
    expect(rails.ownershipClaims.get(id)).toMatchObject({ person: { ssn: '078051120' } });
  });

  it('a control account gets its credit once the window ended with no return', async () => {
    rails.windowEndsAt = new Date(Date.now() - 1000);
    const id = await created({ type: 'control' });
    expect(rails.credits).not.toContain(id);
    await windowsEnded();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', control_status: 'pending' });
    expect(rails.credits).toEqual([id]);
  });

  it('a repeated debit check waits for its own prenotification', async () => {
    const id = await settledAfterItsWindow();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', debit_status: 'valid' });

    rails.windowEndsAt = new Date(Date.now() + 3 * 24 * 3600_000);
    expect((await env.clients.alice.post(`/verify/accounts/${id}/debits`, {})).status).toBe(200);
    await env.runtime.settle();
    expect(await account(id)).toMatchObject({ debit_status: 'pending' });
    // The first debit prenotification's return, late, is not this check's.
    await applyBankOutcome(debitBlocked(id), logger);
    expect(await account(id)).toMatchObject({ debit_status: 'pending' });
    const recheck = (await bankWaits().of('tenant-alice', id)).find((wait) => wait.kind === 'debit');
    await applyBankOutcome(debitBlocked(id, recheck?.reference), logger);
    await env.runtime.settle();
    expect(await account(id)).toMatchObject({ debit_status: 'blocked', debit_status_reason: 'debit_blocked' });
  });
});
