import { describe, expect, it } from 'vitest';
import { estimatedVerificationDate, newVerifyAccount, type VerificationType } from '#domain/verify-account';

const at = (iso: string) => new Date(iso);

describe('estimated verification date', () => {
  it.each<VerificationType>(['status', 'status_ownership'])('is midnight UTC today for %s', (type) => {
    expect(estimatedVerificationDate(type, at('2026-11-20T23:59:59.999Z'))).toBe('2026-11-20T00:00:00.000Z');
  });

  it.each<VerificationType>(['control', 'control_ownership'])('is the next business day for %s', (type) => {
    expect(estimatedVerificationDate(type, at('2026-11-17T10:00:00Z'))).toBe('2026-11-18T00:00:00.000Z');
  });

  it('skips the weekend: Friday and Saturday and Sunday give Monday', () => {
    expect(estimatedVerificationDate('control', at('2026-11-20T10:00:00Z'))).toBe('2026-11-23T00:00:00.000Z');
    expect(estimatedVerificationDate('control', at('2026-11-21T10:00:00Z'))).toBe('2026-11-23T00:00:00.000Z');
    expect(estimatedVerificationDate('control', at('2026-11-22T10:00:00Z'))).toBe('2026-11-23T00:00:00.000Z');
  });
});

describe('a new verify account', () => {
  const base = {
    id: 'a1',
    tenant: 't1',
    account_number: '1234567890',
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
  };
  const now = at('2026-11-18T12:00:00.000Z');

  it('starts pending with only the statuses its type checks', () => {
    const status = newVerifyAccount({ ...base, type: 'status' }, now);
    expect(status).toMatchObject({
      verification_status: 'pending',
      debit_status: 'pending',
      control_attempts: 0,
      version: 1,
    });
    expect(status.ownership_status).toBeUndefined();
    expect(status.control_status).toBeUndefined();

    const full = newVerifyAccount(
      { ...base, type: 'control_ownership', person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' } },
      now,
    );
    expect(full).toMatchObject({ ownership_status: 'pending', control_status: 'pending' });
    // The code is chosen when the credit carrying it is sent, not before.
    expect(full.statement_code_hash).toBeUndefined();
  });

  it('keeps no SSN or tax id, only whether one was given', () => {
    const person = newVerifyAccount(
      { ...base, type: 'status_ownership', person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' } },
      now,
    );
    const business = newVerifyAccount(
      { ...base, type: 'status_ownership', business: { business_name: 'Acme', tax_id: '987654321' } },
      now,
    );
    expect(JSON.stringify(person)).not.toContain('078051120');
    expect(JSON.stringify(business)).not.toContain('987654321');
    expect(person.has_ssn).toBe(true);
    expect(business.has_tax_id).toBe(true);
  });
});
