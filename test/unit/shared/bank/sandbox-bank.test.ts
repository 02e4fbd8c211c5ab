import { describe, expect, it } from 'vitest';
import { SandboxBank, sandboxAccountCheck, sandboxOwnershipCheck } from '#shared/bank/sandbox-bank';

const account = (account_number: string, account_holder_name = 'Jane Doe') => ({
  routing_number: '021000021',
  account_number,
  account_holder_name,
});

describe('sandbox bank: verification by the last four digits', () => {
  it.each([
    [
      '0001111',
      {
        verification_status: 'invalid',
        status_reason: 'invalid_account',
        debit_status: 'failed',
        debit_status_reason: 'invalid_account',
      },
    ],
    [
      '0002222',
      {
        verification_status: 'closed',
        status_reason: 'closed_account',
        debit_status: 'failed',
        debit_status_reason: 'closed_account',
      },
    ],
    [
      '0003333',
      {
        verification_status: 'failed',
        status_reason: 'unavailable_financial_institution',
        debit_status: 'failed',
        debit_status_reason: 'unavailable_financial_institution',
      },
    ],
    ['0004444', { verification_status: 'valid', debit_status: 'blocked', debit_status_reason: 'debit_blocked' }],
    [
      '0005555',
      {
        verification_status: 'invalid',
        status_reason: 'blocked_account',
        debit_status: 'blocked',
        debit_status_reason: 'blocked_account',
      },
    ],
    ['0006789', { verification_status: 'valid', debit_status: 'valid' }],
  ])('account %s gives %o', (number, expected) => {
    expect(sandboxAccountCheck(account(number))).toEqual(expected);
  });

  it.each([
    ['closed', 'closed', 'closed_account'],
    ['INVALID', 'invalid', 'invalid_account'],
    [' Failed ', 'failed', 'unavailable_financial_institution'],
  ])('holder name %j selects %s whatever the account number', (name, status, reason) => {
    expect(sandboxAccountCheck(account('0006789', name))).toMatchObject({
      verification_status: status,
      status_reason: reason,
    });
  });
});

describe('sandbox bank: ownership', () => {
  it('matches every field of a person whose details fit the holder name', () => {
    const result = sandboxOwnershipCheck(account('0006789', 'Jane Doe'), {
      person: { first_name: 'jane', last_name: 'DOE', ssn: '078051120', phone_number: '+14155550123' },
    });
    expect(result).toEqual({
      person: { first_name_match: 'match', last_name_match: 'match', ssn_match: 'match', phone_number_match: 'match' },
    });
  });

  it('reports only the fields that were supplied', () => {
    const result = sandboxOwnershipCheck(account('0006789'), { person: { first_name: 'Jane', last_name: 'Doe' } });
    expect(
      Object.keys(result.person ?? {}).filter((k) => result.person?.[k as keyof typeof result.person] !== undefined),
    ).toEqual(['first_name_match', 'last_name_match']);
  });

  it('uses the magic SSN, tax id and phone values', () => {
    const person = sandboxOwnershipCheck(account('0006789'), {
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '111111111', phone_number: '+14155550000' },
    }).person;
    expect(person).toMatchObject({ ssn_match: 'not_a_match', phone_number_match: 'not_found' });
    const business = sandboxOwnershipCheck(account('0006789', 'Acme Inc'), {
      business: { business_name: 'ACME, Inc.', tax_id: '000000000', phone_number: '+14155551111' },
    }).business;
    expect(business).toEqual({
      business_name_match: 'match',
      tax_id_match: 'not_found',
      phone_number_match: 'not_a_match',
    });
  });

  it('finds no record for account numbers ending 9999', () => {
    const result = sandboxOwnershipCheck(account('0009999', 'Jane Doe'), {
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' },
    });
    expect(result.person).toMatchObject({
      first_name_match: 'not_found',
      last_name_match: 'not_found',
      ssn_match: 'not_found',
    });
  });

  it('sends the statement credit at once with code 0000', async () => {
    const at = new Date('2026-11-18T12:00:00Z');
    await expect(new SandboxBank(() => at).sendStatementCredit()).resolves.toEqual({
      statementCode: '0000',
      sentAt: at,
    });
  });
});
