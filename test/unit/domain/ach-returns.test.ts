import { describe, expect, it } from 'vitest';
import { ACH_RETURN_CODES, creditReturnOf, debitReturnOf, returnWindowEnd, statusReturnOf } from '#domain/ach-returns';
import { DEBIT_STATUS_REASONS, STATUS_REASONS } from '#domain/verify-account';

const at = (iso: string) => new Date(iso);

describe('what a returned prenotification says (docs/api.md#ach-returns)', () => {
  it('a status prenotification returned R02 closes the account, and its debits fail', () => {
    expect(statusReturnOf('R02')).toEqual({
      verification_status: 'closed',
      status_reason: 'closed_account',
      debit_status: 'failed',
      debit_status_reason: 'closed_account',
    });
  });

  it('R03 and R04 make the account invalid: invalid_account', () => {
    for (const code of ['R03', 'R04'] as const) {
      expect(statusReturnOf(code)).toMatchObject({ verification_status: 'invalid', status_reason: 'invalid_account' });
    }
  });

  it('R16 (frozen, or OFAC) makes the account invalid and blocks its debits: blocked_account', () => {
    expect(statusReturnOf('R16')).toEqual({
      verification_status: 'invalid',
      status_reason: 'blocked_account',
      debit_status: 'blocked',
      debit_status_reason: 'blocked_account',
    });
    expect(debitReturnOf('R16')).toEqual({ debit_status: 'blocked', debit_status_reason: 'blocked_account' });
  });

  it('a debit prenotification refused by the holder blocks debits: R20 and R08 debit_blocked, the unauthorized codes unauthorized_transfer', () => {
    for (const code of ['R08', 'R20'] as const) {
      expect(debitReturnOf(code)).toEqual({ debit_status: 'blocked', debit_status_reason: 'debit_blocked' });
    }
    for (const code of ['R05', 'R07', 'R10', 'R11', 'R29'] as const) {
      expect(debitReturnOf(code)).toEqual({ debit_status: 'blocked', debit_status_reason: 'unauthorized_transfer' });
    }
  });

  it('a code that has no meaning for a prenotification fails the check: unexpected_error', () => {
    expect(statusReturnOf('R01')).toMatchObject({ verification_status: 'failed', status_reason: 'unexpected_error' });
    expect(debitReturnOf('R85')).toEqual({ debit_status: 'failed', debit_status_reason: 'unexpected_error' });
    // A code newer than this table, too.
    expect(statusReturnOf('R99')).toMatchObject({ verification_status: 'failed', status_reason: 'unexpected_error' });
  });

  it('knows each code once, in order, and answers only Orum reasons, never valid or pending', () => {
    expect(new Set(ACH_RETURN_CODES).size).toBe(ACH_RETURN_CODES.length);
    expect([...ACH_RETURN_CODES]).toEqual([...ACH_RETURN_CODES].sort());
    for (const code of ACH_RETURN_CODES) {
      const status = statusReturnOf(code);
      expect(['closed', 'invalid', 'failed']).toContain(status.verification_status);
      expect(STATUS_REASONS).toContain(status.status_reason);
      expect(['failed', 'blocked']).toContain(status.debit_status);
      expect(DEBIT_STATUS_REASONS).toContain(status.debit_status_reason);
      const debit = debitReturnOf(code);
      expect(['failed', 'blocked']).toContain(debit.debit_status);
      expect(DEBIT_STATUS_REASONS).toContain(debit.debit_status_reason);
    }
  });
});

describe('what a returned statement credit says (docs/api.md#ach-returns)', () => {
  it('always cancels control: the code never reaches the statement', () => {
    for (const code of [...ACH_RETURN_CODES, 'R99']) expect(creditReturnOf(code).control_status).toBe('canceled');
  });

  it('closes or invalidates the account when the return says the account itself is gone or wrong', () => {
    expect(creditReturnOf('R02')).toEqual({
      control_status: 'canceled',
      verification_status: 'closed',
      status_reason: 'closed_account',
      debit_status: 'failed',
      debit_status_reason: 'closed_account',
    });
    expect(creditReturnOf('R03')).toMatchObject({ verification_status: 'invalid', status_reason: 'invalid_account' });
    expect(creditReturnOf('R16')).toMatchObject({ verification_status: 'invalid', debit_status: 'blocked' });
  });

  it('leaves the account as it is when the entry, not the account, was refused', () => {
    for (const code of ['R23', 'R17', 'R24', 'R32', 'R01', 'R99']) {
      expect(creditReturnOf(code), code).toEqual({ control_status: 'canceled' });
    }
  });

  it('changes the account exactly where a returned status prenotification would make it closed or invalid', () => {
    for (const code of ACH_RETURN_CODES) {
      const status = statusReturnOf(code);
      const changes = status.verification_status === 'closed' || status.verification_status === 'invalid';
      expect(creditReturnOf(code), code).toEqual({ control_status: 'canceled', ...(changes ? status : {}) });
    }
  });
});

describe('the return window of a prenotification', () => {
  it('ends at the end of the third banking day after the day it was sent (UTC)', () => {
    // Monday → Tuesday, Wednesday, Thursday: over at Friday 00:00.
    expect(returnWindowEnd(at('2026-11-16T10:00:00Z'))).toEqual(at('2026-11-20T00:00:00Z'));
    expect(returnWindowEnd(at('2026-11-16T23:59:59.999Z'))).toEqual(at('2026-11-20T00:00:00Z'));
  });

  it('skips weekends: sent on Friday, Saturday or Sunday, it ends on Thursday 00:00', () => {
    for (const sent of ['2026-11-20T09:00:00Z', '2026-11-21T09:00:00Z', '2026-11-22T23:00:00Z']) {
      expect(returnWindowEnd(at(sent))).toEqual(at('2026-11-26T00:00:00Z'));
    }
  });

  it('sent on Wednesday, it runs over the weekend to Tuesday 00:00; sent on Tuesday, to Saturday 00:00', () => {
    expect(returnWindowEnd(at('2026-11-18T12:00:00Z'))).toEqual(at('2026-11-24T00:00:00Z'));
    expect(returnWindowEnd(at('2026-11-17T12:00:00Z'))).toEqual(at('2026-11-21T00:00:00Z'));
  });
});
