import { describe, expect, it } from 'vitest';
import { addBankingDays } from '#domain/banking-days';

const at = (iso: string) => new Date(iso);

describe('banking days (Monday to Friday, UTC)', () => {
  it('counts whole days from the start of the given day', () => {
    expect(addBankingDays(at('2026-11-17T15:30:00Z'), 1)).toEqual(at('2026-11-18T00:00:00Z'));
    expect(addBankingDays(at('2026-11-17T15:30:00Z'), 0)).toEqual(at('2026-11-17T00:00:00Z'));
  });

  it('skips Saturday and Sunday', () => {
    expect(addBankingDays(at('2026-11-20T10:00:00Z'), 1)).toEqual(at('2026-11-23T00:00:00Z'));
    expect(addBankingDays(at('2026-11-21T10:00:00Z'), 1)).toEqual(at('2026-11-23T00:00:00Z'));
    expect(addBankingDays(at('2026-11-19T10:00:00Z'), 3)).toEqual(at('2026-11-24T00:00:00Z'));
  });
});
