import { describe, expect, it } from 'vitest';
import { statusReason } from '#domain/person';
import { type Hit, listingRevision } from '#domain/screening-match';
import {
  clearingLiftsHold,
  type HitRecord,
  KEPT_DECISIONS,
  planRecording,
  type Screening,
} from '#domain/screening-review';

const SANDY = { name: 'SANCTIONED, Sandy', names: [{ name: 'SANCTIONED, Sandy', kind: 'primary' as const }] };

const hit = (overrides: Partial<Hit> = {}): Hit => ({
  list: 'sanctions',
  source: 'SANDBOX',
  entryId: 'SDN-90001',
  listedName: 'SANCTIONED, Sandy',
  matchedName: 'SANCTIONED, Sandy',
  matchedKind: 'primary',
  score: 100,
  dateOfBirth: 'unknown',
  listingRevision: listingRevision({ ...SANDY, datesOfBirth: [] }),
  ...overrides,
});

const screening = (overrides: Partial<Screening> = {}): Screening => ({
  tenant: 'acme',
  personId: 'p-1',
  screened: { first_name: 'Sandy', last_name: 'Sanctioned' },
  listsVersion: 7,
  at: '2026-11-30T10:00:00.000Z',
  ...overrides,
});

const decision = {
  decision: 'false_positive' as const,
  decided_by: 'ops-client',
  decided_at: '2026-11-30T11:00:00.000Z',
};

/** The record a first screening writes, then decided as given. */
function recorded(status: HitRecord['status'], overrides: Partial<HitRecord> = {}): HitRecord {
  const [write] = planRecording([], screening(), [hit()]).writes;
  return {
    ...(write?.next as HitRecord),
    status,
    version: 2,
    ...(status !== 'open' && {
      decision: { ...decision, decision: status === 'cleared' ? 'false_positive' : 'confirmed' },
    }),
    ...overrides,
  };
}

describe('recording a screening’s hits', () => {
  it('records a new hit open, with the lists’ version and when it was found', () => {
    const { effective, writes } = planRecording([], screening(), [hit()]);
    expect(effective).toEqual([hit()]);
    expect(writes).toHaveLength(1);
    expect(writes[0]?.previous).toBeUndefined();
    expect(writes[0]?.next).toMatchObject({
      status: 'open',
      listsVersion: 7,
      foundAt: '2026-11-30T10:00:00.000Z',
      screened: { first_name: 'Sandy', last_name: 'Sanctioned' },
    });
  });

  it('refreshes an open hit found again without opening a second one or moving when it was found', () => {
    const open = recorded('open');
    const later = screening({ listsVersion: 8, at: '2026-12-01T00:00:00.000Z' });
    const { effective, writes } = planRecording([open], later, [hit({ score: 96 })]);
    expect(effective).toHaveLength(1);
    expect(writes).toEqual([
      {
        previous: open,
        next: { ...open, hit: hit({ score: 96 }), listsVersion: 8, screenedAt: '2026-12-01T00:00:00.000Z' },
      },
    ]);
  });

  it('drops a hit cleared as a false positive while neither the person nor the listing changed, and writes nothing', () => {
    const { effective, writes } = planRecording([recorded('cleared')], screening({ listsVersion: 9 }), [hit()]);
    expect(effective).toEqual([]);
    expect(writes).toEqual([]);
  });

  it.each([
    ['the first name', { first_name: 'Sandie' }],
    ['a middle name added', { middle_name: 'Q' }],
    ['the last name', { last_name: 'Sanctioner' }],
    ['the date of birth', { date_of_birth: '1980-01-01' }],
  ])(
    'flags a cleared hit again once the person’s %s changed, keeping the decision among the earlier ones',
    (_, change) => {
      const cleared = recorded('cleared');
      const later = screening({ screened: { ...screening().screened, ...change }, at: '2026-12-02T00:00:00.000Z' });
      const { effective, writes } = planRecording([cleared], later, [hit()]);
      expect(effective).toHaveLength(1);
      expect(writes[0]?.next).toMatchObject({ status: 'open', foundAt: '2026-12-02T00:00:00.000Z' });
      expect(writes[0]?.next.decision).toBeUndefined();
      expect(writes[0]?.next.earlierDecisions).toEqual([cleared.decision]);
    },
  );

  it('flags a cleared hit again once the listing’s names or dates changed', () => {
    const moved = listingRevision({ ...SANDY, datesOfBirth: [{ year: 1961, toYear: 1961, day: '1961-03-12' }] });
    const { effective, writes } = planRecording([recorded('cleared')], screening(), [hit({ listingRevision: moved })]);
    expect(effective).toHaveLength(1);
    expect(writes[0]?.next.status).toBe('open');
  });

  it('keeps a confirmed hit confirmed, its decision untouched, and counts it', () => {
    const confirmed = recorded('confirmed');
    const { effective, writes } = planRecording([confirmed], screening({ listsVersion: 9 }), [hit({ score: 90 })]);
    expect(effective).toHaveLength(1);
    expect(writes[0]?.next).toEqual({ ...confirmed, listsVersion: 9 });
  });

  it('keeps at most the last few earlier decisions', () => {
    const many = Array.from({ length: KEPT_DECISIONS }, (_, n) => ({ ...decision, decided_at: `2026-01-${10 + n}` }));
    const cleared = recorded('cleared', { earlierDecisions: many });
    const { writes } = planRecording([cleared], screening({ screened: { first_name: 'X', last_name: 'Y' } }), [hit()]);
    expect(writes[0]?.next.earlierDecisions).toHaveLength(KEPT_DECISIONS);
    expect(writes[0]?.next.earlierDecisions.at(-1)).toEqual(cleared.decision);
  });

  it('treats the same listing content alike whatever the order of its names and dates', () => {
    const names = [...SANDY.names, { name: 'SANCTIONNE, Sandie', kind: 'aka' as const }];
    const dates = [
      { year: 1970, toYear: 1970 },
      { year: 1971, toYear: 1971 },
    ];
    expect(listingRevision({ ...SANDY, names, datesOfBirth: dates })).toBe(
      listingRevision({ ...SANDY, names: [...names].reverse(), datesOfBirth: [...dates].reverse() }),
    );
    expect(listingRevision({ ...SANDY, names, datesOfBirth: dates })).not.toBe(
      listingRevision({ ...SANDY, names, datesOfBirth: [] }),
    );
  });
});

describe('whether clearing a hit lifts the person’s hold', () => {
  const held = (status: 'restricted' | 'rejected', ...codes: Parameters<typeof statusReason>[0][]) => ({
    status,
    status_reasons: codes.map(statusReason),
  });

  it('lifts a restriction or a rejection held by screening reasons alone once no other hit holds the person', () => {
    expect(clearingLiftsHold(held('restricted', 'matched_watchlist'), [])).toBe(true);
    expect(clearingLiftsHold(held('rejected', 'matched_watchlist', 'matched_alertlist'), [{ status: 'cleared' }])).toBe(
      true,
    );
  });

  it('keeps the hold while another hit is open or confirmed', () => {
    expect(clearingLiftsHold(held('rejected', 'matched_watchlist'), [{ status: 'open' }])).toBe(false);
    expect(clearingLiftsHold(held('restricted', 'matched_watchlist'), [{ status: 'confirmed' }])).toBe(false);
  });

  it('keeps a rejection that has a reason besides screening', () => {
    expect(clearingLiftsHold(held('rejected', 'matched_watchlist', 'invalid_ssn'), [])).toBe(false);
  });

  it('changes no other status', () => {
    for (const status of ['created', 'verified', 'closed'] as const) {
      expect(clearingLiftsHold({ status, status_reasons: [statusReason('matched_watchlist')] }, [])).toBe(false);
    }
  });
});
