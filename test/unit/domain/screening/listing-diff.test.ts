import { describe, expect, it } from 'vitest';
import { diffListings } from '#domain/listing-diff';
import type { ListedPerson } from '#domain/screening-match';

const listing = (entryId: string, overrides: Partial<ListedPerson> = {}): ListedPerson => {
  const source = entryId.split('-')[0] ?? 'SDN';
  const name = `PERSON, ${entryId}`;
  return {
    list: source === 'ALERTS' ? 'alerts' : 'sanctions',
    source,
    entryId,
    name,
    names: [
      { name, kind: 'primary' },
      { name: `ALIAS, ${entryId}`, kind: 'aka', aliasId: `${entryId}-a` },
    ],
    datesOfBirth: [{ year: 1970, toYear: 1970, day: '1970-01-01' }],
    ...overrides,
  };
};

const OFAC = new Set(['SDN', 'CONS']);
const ids = (listings: readonly { entryId: string }[]) => listings.map((l) => l.entryId).sort();

describe('the difference between the stored lists and a fetched copy', () => {
  it('is empty when the fetched copy holds the same listings, whatever their order', () => {
    const stored = [listing('SDN-1'), listing('SDN-2'), listing('CONS-3')];
    expect(diffListings(stored, [...stored].reverse(), OFAC)).toEqual({ put: [], remove: [] });
  });

  it('puts an added listing and removes one the copy no longer holds', () => {
    const diff = diffListings([listing('SDN-1'), listing('SDN-2')], [listing('SDN-1'), listing('SDN-3')], OFAC);
    expect(ids(diff.put)).toEqual(['SDN-3']);
    expect(diff.remove).toEqual([{ list: 'sanctions', entryId: 'SDN-2' }]);
  });

  it('puts a listing whose name, alias or date of birth changed, and no other', () => {
    const stored = [listing('SDN-1'), listing('SDN-2'), listing('SDN-3'), listing('SDN-4')];
    const renamed = listing('SDN-1', { name: 'PERSON, Renamed' });
    const aliased = listing('SDN-2', {
      names: [...listing('SDN-2').names, { name: 'NEW ALIAS', kind: 'fka', aliasId: '99' }],
    });
    const dated = listing('SDN-3', { datesOfBirth: [{ year: 1971, toYear: 1971 }] });
    const diff = diffListings(stored, [renamed, aliased, dated, listing('SDN-4')], OFAC);
    expect(ids(diff.put)).toEqual(['SDN-1', 'SDN-2', 'SDN-3']);
    expect(diff.remove).toEqual([]);
  });

  it('puts a listing that lost an alias (the stored one would match on a name no longer listed)', () => {
    const dropped = listing('SDN-1', { names: [listing('SDN-1').names[0]!] });
    expect(ids(diffListings([listing('SDN-1')], [dropped], OFAC).put)).toEqual(['SDN-1']);
  });

  it('ignores the order of aliases and of dates of birth', () => {
    const stored = listing('SDN-1', {
      names: [
        { name: 'A', kind: 'primary' },
        { name: 'B', kind: 'aka', aliasId: '1' },
        { name: 'C', kind: 'aka', aliasId: '2' },
      ],
      datesOfBirth: [
        { year: 1970, toYear: 1970 },
        { year: 1971, toYear: 1972, circa: true },
      ],
    });
    const reordered = {
      ...stored,
      names: [stored.names[0]!, stored.names[2]!, stored.names[1]!],
      datesOfBirth: [...stored.datesOfBirth].reverse(),
    };
    expect(diffListings([stored], [reordered], OFAC)).toEqual({ put: [], remove: [] });
  });

  it('never removes listings of a source the copy does not cover (the local, sandbox and alert lists)', () => {
    const stored = [listing('SDN-1'), listing('LOCAL-2'), listing('SANDBOX-3'), listing('ALERTS-4')];
    expect(diffListings(stored, [listing('SDN-1')], OFAC)).toEqual({ put: [], remove: [] });
  });

  it('removes every listing of a covered source the copy left out', () => {
    const diff = diffListings([listing('SDN-1'), listing('CONS-2')], [listing('SDN-1')], OFAC);
    expect(diff.remove).toEqual([{ list: 'sanctions', entryId: 'CONS-2' }]);
  });

  it('refuses a fetched listing of a source the copy does not claim to cover', () => {
    expect(() => diffListings([], [listing('ALERTS-1')], OFAC)).toThrow(/ALERTS-1.*ALERTS/);
  });
});
