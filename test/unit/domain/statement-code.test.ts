import { describe, expect, it } from 'vitest';
import { decideControlSubmission, hashStatementCode } from '#domain/statement-code';
import type { VerifyAccount } from '#domain/verify-account';

const NOW = new Date('2026-11-19T09:00:00.000Z');

const account = (over: Partial<VerifyAccount> = {}): VerifyAccount => ({
  id: 'a1',
  tenant: 't1',
  type: 'control',
  created_at: '2026-11-18T12:00:00.000Z',
  updated_at: '2026-11-18T12:00:00.000Z',
  account_number: '1234567890',
  routing_number: '021000021',
  account_holder_name: 'Jane Doe',
  verification_status: 'valid',
  control_status: 'pending',
  debit_status: 'valid',
  estimated_verification_date: '2026-11-19T00:00:00.000Z',
  statement_code_hash: hashStatementCode('AB12'),
  statement_code_sent_at: '2026-11-18T12:00:01.000Z',
  control_attempts: 0,
  version: 3,
  ...over,
});

describe('statement code submission', () => {
  it('accepts the right code whatever its case', () => {
    expect(decideControlSubmission(account(), 'AB12', NOW)).toEqual({ kind: 'correct' });
    expect(decideControlSubmission(account(), 'ab12', NOW)).toEqual({ kind: 'correct' });
  });

  it('counts wrong codes down and cancels at the third', () => {
    expect(decideControlSubmission(account(), 'ZZ99', NOW)).toEqual({
      kind: 'incorrect',
      attempts: 1,
      attemptsRemaining: 2,
      cancels: false,
    });
    expect(decideControlSubmission(account({ control_attempts: 1 }), 'ZZ99', NOW)).toMatchObject({
      attemptsRemaining: 1,
      cancels: false,
    });
    expect(decideControlSubmission(account({ control_attempts: 2 }), 'ZZ99', NOW)).toMatchObject({
      attempts: 3,
      attemptsRemaining: 0,
      cancels: true,
    });
  });

  it('refuses every submission after three wrong codes, even the right one', () => {
    const spent = account({ control_attempts: 3, control_status: 'canceled' });
    expect(decideControlSubmission(spent, 'AB12', NOW)).toEqual({ kind: 'too_many_attempts' });
  });

  it('says control was not requested for types without control', () => {
    expect(decideControlSubmission(account({ type: 'status' }), 'AB12', NOW)).toEqual({ kind: 'not_requested' });
    expect(decideControlSubmission(account({ type: 'status_ownership' }), 'AB12', NOW)).toEqual({
      kind: 'not_requested',
    });
  });

  it('refuses a code before the credit carrying it was sent', () => {
    expect(decideControlSubmission(account({ statement_code_sent_at: undefined }), 'AB12', NOW)).toEqual({
      kind: 'not_sent',
    });
  });

  it('leaves an account already valid for control unchanged', () => {
    expect(decideControlSubmission(account({ control_status: 'valid' }), 'ZZ99', NOW)).toEqual({
      kind: 'already_valid',
    });
  });

  it('refuses a code once control was canceled for another reason', () => {
    expect(decideControlSubmission(account({ control_status: 'canceled' }), 'AB12', NOW)).toEqual({ kind: 'canceled' });
  });

  it('refuses a code five days or more after it was sent, and accepts it just before', () => {
    const sent = new Date('2026-11-18T12:00:01.000Z').getTime();
    const day = 24 * 60 * 60 * 1000;
    expect(decideControlSubmission(account(), 'AB12', new Date(sent + 5 * day))).toEqual({ kind: 'expired' });
    expect(decideControlSubmission(account(), 'AB12', new Date(sent + 5 * day - 1))).toEqual({ kind: 'correct' });
  });
});
