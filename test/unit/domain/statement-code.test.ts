import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CodeDigest, decideControlSubmission, hashStatementCode, newStatementCode } from '#domain/statement-code';
import { STATEMENT_CODE_PATTERN, type VerifyAccount } from '#domain/verify-account';

const NOW = new Date('2026-11-19T09:00:00.000Z');

/** A keyed digest as the service's (an HMAC), under a key of the test's own. */
const keyed =
  (key: string): CodeDigest =>
  (value) =>
    createHmac('sha256', key).update(value, 'utf8').digest('hex');
const DIGEST = keyed('test key');
const decide = (a: VerifyAccount, code: string, at: Date) => decideControlSubmission(a, code, at, DIGEST);

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
  statement_code_hash: hashStatementCode('AB12', DIGEST),
  statement_code_sent_at: '2026-11-18T12:00:01.000Z',
  control_attempts: 0,
  version: 3,
  ...over,
});

describe('statement code submission', () => {
  it('accepts the right code whatever its case', () => {
    expect(decide(account(), 'AB12', NOW)).toEqual({ kind: 'correct' });
    expect(decide(account(), 'ab12', NOW)).toEqual({ kind: 'correct' });
  });

  it('counts wrong codes down and cancels at the third', () => {
    expect(decide(account(), 'ZZ99', NOW)).toEqual({
      kind: 'incorrect',
      attempts: 1,
      attemptsRemaining: 2,
      cancels: false,
    });
    expect(decide(account({ control_attempts: 1 }), 'ZZ99', NOW)).toMatchObject({
      attemptsRemaining: 1,
      cancels: false,
    });
    expect(decide(account({ control_attempts: 2 }), 'ZZ99', NOW)).toMatchObject({
      attempts: 3,
      attemptsRemaining: 0,
      cancels: true,
    });
  });

  it('refuses every submission after three wrong codes, even the right one', () => {
    const spent = account({ control_attempts: 3, control_status: 'canceled' });
    expect(decide(spent, 'AB12', NOW)).toEqual({ kind: 'too_many_attempts' });
  });

  it('says control was not requested for types without control', () => {
    expect(decide(account({ type: 'status' }), 'AB12', NOW)).toEqual({ kind: 'not_requested' });
    expect(decide(account({ type: 'status_ownership' }), 'AB12', NOW)).toEqual({
      kind: 'not_requested',
    });
  });

  it('refuses a code before the credit carrying it was sent', () => {
    expect(decide(account({ statement_code_sent_at: undefined }), 'AB12', NOW)).toEqual({
      kind: 'not_sent',
    });
  });

  it('leaves an account already valid for control unchanged', () => {
    expect(decide(account({ control_status: 'valid' }), 'ZZ99', NOW)).toEqual({
      kind: 'already_valid',
    });
  });

  it('refuses a code once control was canceled for another reason', () => {
    expect(decide(account({ control_status: 'canceled' }), 'AB12', NOW)).toEqual({ kind: 'canceled' });
  });

  it('refuses a code five days or more after it was sent, and accepts it just before', () => {
    const sent = new Date('2026-11-18T12:00:01.000Z').getTime();
    const day = 24 * 60 * 60 * 1000;
    expect(decide(account(), 'AB12', new Date(sent + 5 * day))).toEqual({ kind: 'expired' });
    expect(decide(account(), 'AB12', new Date(sent + 5 * day - 1))).toEqual({ kind: 'correct' });
  });

  it('stores the code only as its keyed digest: the digest under another key does not match', () => {
    const stored = account({ statement_code_hash: hashStatementCode('AB12', keyed('another key')) });
    expect(hashStatementCode('ab12', DIGEST)).toBe(hashStatementCode('AB12', DIGEST));
    expect(stored.statement_code_hash).not.toBe(hashStatementCode('AB12', DIGEST));
    expect(decide(stored, 'AB12', NOW)).toMatchObject({ kind: 'incorrect' });
  });
});

describe('a new statement code', () => {
  it('is 4 upper-case letters or digits, as a submission is compared, and varies', () => {
    const codes = Array.from({ length: 200 }, () => newStatementCode());
    for (const code of codes) {
      expect(code).toMatch(STATEMENT_CODE_PATTERN);
      expect(code).toBe(code.toUpperCase());
    }
    expect(new Set(codes).size).toBeGreaterThan(150);
  });
});
