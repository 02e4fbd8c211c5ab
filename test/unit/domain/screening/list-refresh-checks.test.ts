import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REFRESH_LIMITS,
  endsWhole,
  nextPeaks,
  peakOf,
  refreshProblems,
  type SourceCount,
} from '#domain/list-refresh-checks';

const limits = DEFAULT_REFRESH_LIMITS;
const check = (counts: SourceCount[], files = []) => refreshProblems({ counts, files, limits });

describe('the checks a fetched copy of the lists passes before anything is written', () => {
  it('passes a copy that grows, stays or shrinks within the allowance', () => {
    expect(
      check([
        { source: 'SDN', stored: 4620, fetched: 4700 },
        { source: 'CONS', stored: 79, fetched: 79 },
      ]),
    ).toEqual([]);
    // 5 % of 4,620 is 231.
    expect(check([{ source: 'SDN', stored: 4620, fetched: 4620 - 231 }])).toEqual([]);
  });

  it('refuses a source that lost more than 5 % of its listed persons', () => {
    expect(check([{ source: 'SDN', stored: 4620, fetched: 4620 - 232 }])).toEqual([
      'SDN: 4388 listed persons, 232 fewer than the 4620 stored (at most 231 may go at once)',
    ]);
  });

  it('lets a small list lose a few listed persons (10 at least may go at once)', () => {
    expect(check([{ source: 'CONS', stored: 79, fetched: 69 }])).toEqual([]);
    expect(check([{ source: 'CONS', stored: 79, fetched: 68 }])).toHaveLength(1);
  });

  it('measures a drop from the largest count of the last 30 days when it is above the stored one', () => {
    const peak = { count: 1000, day: '2026-09-01' };
    expect(check([{ source: 'SDN', stored: 951, fetched: 950, peak }])).toEqual([]);
    expect(check([{ source: 'SDN', stored: 951, fetched: 949, peak }])).toEqual([
      'SDN: 949 listed persons, 51 fewer than the 1000 of 2026-09-01, the most in the last 30 days (at most 50 may go within 30 days)',
    ]);
    // A peak below the stored count (the list grew since) changes nothing.
    expect(check([{ source: 'SDN', stored: 1000, fetched: 950, peak: { count: 900, day: '2026-09-01' } }])).toEqual([]);
  });

  it('refuses a source with no listed person at all, however few were stored', () => {
    expect(check([{ source: 'CONS', stored: 3, fetched: 0 }])).toEqual(['CONS: no listed person']);
    expect(check([{ source: 'SDN', stored: 0, fetched: 0 }])).toEqual(['SDN: no listed person']);
  });

  it('takes its percentage from the settings', () => {
    const strict = { ...limits, maxDropPercent: 1 };
    expect(
      refreshProblems({ counts: [{ source: 'SDN', stored: 4620, fetched: 4620 - 47 }], files: [], limits: strict }),
    ).toHaveLength(1);
  });

  it('refuses a file published before the copy last refreshed from (a stale mirror or a replayed file)', () => {
    const files = [
      {
        name: 'sdn.csv',
        whole: true,
        publishedAt: '2026-09-03T14:01:44.000Z',
        lastPublishedAt: '2026-09-04T14:01:44.000Z',
      },
      {
        name: 'alt.csv',
        whole: true,
        publishedAt: '2026-09-04T14:01:44.000Z',
        lastPublishedAt: '2026-09-04T14:01:44.000Z',
      },
      {
        name: 'add.csv',
        whole: true,
        publishedAt: '2026-09-05T14:01:44.000Z',
        lastPublishedAt: '2026-09-04T14:01:44.000Z',
      },
      { name: 'cons_prim.csv', whole: true, lastPublishedAt: '2026-09-04T14:01:44.000Z' },
    ];
    expect(refreshProblems({ counts: [], files, limits })).toEqual([
      'sdn.csv: published 2026-09-03T14:01:44.000Z, before the 2026-09-04T14:01:44.000Z last refreshed from',
    ]);
  });

  it('refuses a downloaded file without a publication date (no Last-Modified): a replayed copy could not be told', () => {
    const files = [
      { name: 'sdn.csv', whole: true, downloaded: true, lastPublishedAt: '2026-09-04T14:01:44.000Z' },
      { name: 'alt.csv', whole: true, downloaded: true },
      { name: 'add.csv', whole: true, downloaded: true, publishedAt: '2026-09-04T14:01:44.000Z' },
      { name: 'cons_prim.csv', whole: true, downloaded: false },
    ];
    expect(refreshProblems({ counts: [], files, limits })).toEqual([
      'sdn.csv: sent no Last-Modified, so it cannot be told from an older copy replayed (the one last refreshed from is the newest allowed)',
      'alt.csv: sent no Last-Modified, so it cannot be told from an older copy replayed (the one last refreshed from is the newest allowed)',
    ]);
  });

  it('refuses a file cut short (without OFAC’s end-of-file mark)', () => {
    expect(refreshProblems({ counts: [], files: [{ name: 'alt.csv', whole: false }], limits })).toEqual([
      'alt.csv: does not end with OFAC’s end-of-file mark (control-Z): cut short?',
    ]);
  });

  it('lifts only the count and date checks when an operator forces: a cut, an empty source stay refused', () => {
    const input = {
      counts: [
        { source: 'SDN', stored: 4620, fetched: 2000 },
        { source: 'CONS', stored: 79, fetched: 0 },
      ],
      files: [
        { name: 'sdn.csv', whole: true, downloaded: true },
        {
          name: 'alt.csv',
          whole: true,
          publishedAt: '2026-09-03T00:00:00.000Z',
          lastPublishedAt: '2026-09-04T00:00:00.000Z',
        },
        { name: 'cons_prim.csv', whole: false, downloaded: true, publishedAt: '2026-09-04T00:00:00.000Z' },
      ],
      limits,
    };
    expect(refreshProblems(input)).toHaveLength(5);
    expect(refreshProblems({ ...input, forced: true })).toEqual([
      'cons_prim.csv: does not end with OFAC’s end-of-file mark (control-Z): cut short?',
      'CONS: no listed person',
    ]);
  });

  it('names every problem found, not only the first', () => {
    const problems = refreshProblems({
      counts: [{ source: 'CONS', stored: 79, fetched: 0 }],
      files: [{ name: 'cons_prim.csv', whole: false }],
      limits,
    });
    expect(problems).toHaveLength(2);
  });
});

describe('the baseline of a source’s drops: its largest count of each of the last 30 days', () => {
  const at = (iso: string) => new Date(`${iso}T04:00:00.000Z`);

  it('is the largest count of the last 30 days, today included, with its day', () => {
    const peaks = { '2026-09-01': 1000, '2026-09-02': 951, '2026-09-20': 990 };
    expect(peakOf(peaks, at('2026-09-30'))).toEqual({ count: 1000, day: '2026-09-01' });
    expect(peakOf(peaks, at('2026-10-01'))).toEqual({ count: 990, day: '2026-09-20' });
    expect(peakOf(peaks, at('2026-10-20'))).toBeUndefined();
    expect(peakOf(undefined, at('2026-10-01'))).toBeUndefined();
  });

  it('raises today’s count, and forgets days older than 30 (at most 30 a source)', () => {
    let peaks = {};
    for (let day = 1; day <= 40; day++) {
      peaks = nextPeaks(peaks, { SDN: 4600 + day }, new Date(Date.UTC(2026, 8, day, 4)), false);
    }
    const sdn = (peaks as Record<string, Record<string, number>>).SDN ?? {};
    expect(Object.keys(sdn)).toHaveLength(30);
    expect(Object.keys(sdn).sort()[0]).toBe('2026-09-11');
    const again = nextPeaks(peaks, { SDN: 1 }, new Date(Date.UTC(2026, 9, 10, 5)), false);
    expect(again.SDN?.['2026-10-10']).toBe(4640);
  });

  it('keeps the sources a refresh did not cover, and starts those an operator forced afresh', () => {
    const previous = { SDN: { '2026-09-01': 1000 }, CONS: { '2026-09-01': 79 } };
    expect(nextPeaks(previous, { SDN: 800 }, at('2026-09-02'), false)).toEqual({
      SDN: { '2026-09-01': 1000, '2026-09-02': 800 },
      CONS: { '2026-09-01': 79 },
    });
    expect(nextPeaks(previous, { SDN: 800 }, at('2026-09-02'), true)).toEqual({
      SDN: { '2026-09-02': 800 },
      CONS: { '2026-09-01': 79 },
    });
  });
});

describe('a whole OFAC file', () => {
  it('ends with the end-of-file mark, after its last line', () => {
    expect(endsWhole('1,"A"\r\n\u001a')).toBe(true);
    expect(endsWhole('1,"A"\r\n\u001a\r\n')).toBe(true);
    expect(endsWhole('1,"A"\r\n')).toBe(false);
    expect(endsWhole('')).toBe(false);
  });
});
