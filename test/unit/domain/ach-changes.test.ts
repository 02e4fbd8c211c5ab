import { describe, expect, it } from 'vitest';
import { ACH_CHANGE_CODES, type AchChangeCode, debitChangeOf, statusChangeOf } from '#domain/ach-changes';

/** What each code says about the account as the partner gave it: which number is wrong, or nothing. */
const WRONG_AS_GIVEN: Record<AchChangeCode, 'invalid_account' | 'invalid_routing' | undefined> = {
  C01: 'invalid_account',
  C02: 'invalid_routing',
  C03: 'invalid_routing',
  C04: undefined,
  C05: undefined,
  C06: 'invalid_account',
  C07: 'invalid_routing',
  C08: undefined,
  C09: undefined,
  C13: undefined,
  C14: undefined,
  C61: undefined,
  C62: undefined,
  C63: undefined,
  C64: undefined,
  C65: undefined,
  C66: undefined,
  C67: undefined,
  C68: undefined,
  C69: undefined,
};
const EVERY_CODE = Object.keys(WRONG_AS_GIVEN) as AchChangeCode[];

describe('what a notification of change on a prenotification says (docs/api.md#notifications-of-change)', () => {
  it.each([
    { what: 'account number (C01, C06)', codes: ['C01', 'C06'], reason: 'invalid_account' },
    { what: 'routing number (C02, C03, C07)', codes: ['C02', 'C03', 'C07'], reason: 'invalid_routing' },
  ] as const)(
    'a corrected $what makes the account as given invalid, and its debits fail: $reason',
    ({ codes, reason }) => {
      for (const code of codes) {
        expect(statusChangeOf(code)).toEqual({
          verification_status: 'invalid',
          status_reason: reason,
          debit_status: 'failed',
          debit_status_reason: reason,
        });
        expect(debitChangeOf(code)).toEqual({ debit_status: 'failed', debit_status_reason: reason });
      }
    },
  );

  it('a corrected transaction code alone (C05: the account is savings, not checking) leaves the account valid as given', () => {
    expect(statusChangeOf('C05')).toBeUndefined();
    expect(debitChangeOf('C05')).toBeUndefined();
  });

  it("a correction of the entry's other fields, or a refused notification's code, says nothing about the account", () => {
    for (const code of ['C04', 'C08', 'C09', 'C13', 'C14', 'C61', 'C63', 'C67', 'C68', 'C69'] as const) {
      expect(statusChangeOf(code)).toBeUndefined();
      expect(debitChangeOf(code)).toBeUndefined();
    }
  });

  it('a code newer than this table says nothing about the account either: the entry it answers was posted', () => {
    expect(statusChangeOf('C15')).toBeUndefined();
    expect(debitChangeOf('C70')).toBeUndefined();
  });

  it.each(EVERY_CODE)('%s on the status and on the debit prenotification: as pinned', (code) => {
    const reason = WRONG_AS_GIVEN[code];
    expect(statusChangeOf(code)).toEqual(
      reason && {
        verification_status: 'invalid',
        status_reason: reason,
        debit_status: 'failed',
        debit_status_reason: reason,
      },
    );
    expect(debitChangeOf(code)).toEqual(reason && { debit_status: 'failed', debit_status_reason: reason });
  });

  it('knows each pinned code once, in order, and no other', () => {
    expect([...ACH_CHANGE_CODES]).toEqual([...EVERY_CODE].sort());
  });
});
