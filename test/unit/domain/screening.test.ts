import { describe, expect, it } from 'vitest';
import { parseCsv } from '#domain/csv';
import { findMatches, matches, nameKey, parseAlertCsv, type ScreeningEntry, screeningReasons } from '#domain/screening';
import { ScreeningIndex } from '#domain/screening-index';
import { parseListFiles, readListFiles, SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';

const entry = (overrides: Partial<ScreeningEntry> = {}): ScreeningEntry => ({
  list: 'sanctions',
  entryId: '1',
  name: 'SANCTIONED, Sandy',
  nameKey: nameKey('Sandy', 'Sanctioned'),
  ...overrides,
});

describe('name key', () => {
  it.each([
    ['Sandy', 'Sanctioned'],
    ['SANCTIONED,', 'Sandy'],
    ['sanctioned', 'sandy'],
    ['  Sandy ', ' SANCTIONED '],
    ['Sándy', 'Sanctiöned'],
  ])('folds %j %j to the same key as Sandy Sanctioned', (first, last) => {
    expect(nameKey(first, last)).toBe('sanctioned sandy');
  });

  it("folds hyphens and apostrophes inside a word: Mary-Jane O'Neil is maryjane oneil", () => {
    expect(nameKey('Mary-Jane', "O'Neil")).toBe(nameKey('maryjane', 'oneil'));
    expect(nameKey('Mary-Jane', "O'Neil")).toBe('maryjane oneil');
  });

  it('keeps different words apart', () => {
    expect(nameKey('Sandy', 'Sanctioned')).not.toBe(nameKey('Sandra', 'Sanctioned'));
    expect(nameKey('Mary Jane', 'Smith')).not.toBe(nameKey('Maryjane', 'Smith'));
  });
});

describe('matching a person against a list entry', () => {
  const sandy = { first_name: 'Sandy', last_name: 'Sanctioned' };

  it('matches on the folded name when the entry has no date of birth, whatever the person’s', () => {
    expect(matches(sandy, entry())).toBe(true);
    expect(matches({ ...sandy, date_of_birth: '1990-01-01' }, entry())).toBe(true);
    expect(matches({ first_name: 'SANCTIONED', last_name: 'sandy' }, entry())).toBe(true);
  });

  it('matches an entry with a date of birth only when the person’s is equal', () => {
    const dated = entry({ dateOfBirth: '1961-03-12' });
    expect(matches({ ...sandy, date_of_birth: '1961-03-12' }, dated)).toBe(true);
    expect(matches({ ...sandy, date_of_birth: '1961-03-13' }, dated)).toBe(false);
  });

  it('matches a dated entry when the person has no date of birth (nothing to tell them apart)', () => {
    expect(matches(sandy, entry({ dateOfBirth: '1961-03-12' }))).toBe(true);
  });

  it('does not match another name', () => {
    expect(matches({ first_name: 'Sandy', last_name: 'Sanction' }, entry())).toBe(false);
  });

  it('matches a listing with a middle name when the person gives it, and not without it', () => {
    const listed = entry({ nameKey: nameKey('Casey Quinn', 'Doblisted') });
    expect(matches({ first_name: 'Casey', middle_name: 'Quinn', last_name: 'Doblisted' }, listed)).toBe(true);
    expect(matches({ first_name: 'Casey', last_name: 'Doblisted' }, listed)).toBe(false);
  });

  it('matches a listing without a middle name when the person gives one', () => {
    expect(matches({ first_name: 'Sandy', middle_name: 'Q', last_name: 'Sanctioned' }, entry())).toBe(true);
  });

  it('reports matched_watchlist for the sanctions list and matched_alertlist for the alert list, once each', () => {
    const entries = [
      entry(),
      entry({ entryId: '2' }),
      entry({ list: 'alerts', entryId: 'a1' }),
      entry({ list: 'alerts', entryId: 'a2', nameKey: 'someone else' }),
    ];
    expect(findMatches(sandy, entries).map((e) => e.entryId)).toEqual(['1', '2', 'a1']);
    expect(screeningReasons(sandy, entries)).toEqual(['matched_alertlist', 'matched_watchlist']);
    expect(screeningReasons({ first_name: 'Jane', last_name: 'Doe' }, entries)).toEqual([]);
  });
});

describe('CSV (RFC 4180)', () => {
  it('splits on commas and keeps commas, line breaks and doubled quotes inside quoted fields', () => {
    const text = 'a,"b, c","say ""hi""","two\nlines",\r\nx,y\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b, c', 'say "hi"', 'two\nlines', ''],
      ['x', 'y'],
    ]);
  });

  it('reads CRLF, LF and a last line without a break alike', () => {
    expect(parseCsv('a,b\r\nc,d\ne,f')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('drops blank lines, a byte-order mark and the control-Z end-of-file line', () => {
    expect(parseCsv('\uFEFFa,b\r\n\r\n\n\u001a')).toEqual([['a', 'b']]);
  });

  it('keeps a quote inside an unquoted field as it is', () => {
    expect(parseCsv('5" disk,x')).toEqual([['5" disk', 'x']]);
  });

  it('keeps an empty quoted field empty', () => {
    expect(parseCsv('"",a')).toEqual([['', 'a']]);
  });
});

describe('alert list', () => {
  it('reads id, name and an optional date of birth, names in either order', () => {
    const text = 'id,name,date_of_birth\nalert-1,Alex Alertlist,\nalert-2,"FRAUDSTER, Fiona",1985-07-14\n';
    expect(parseAlertCsv(text)).toEqual([
      { list: 'alerts', entryId: 'alert-1', name: 'Alex Alertlist', nameKey: 'alertlist alex' },
      {
        list: 'alerts',
        entryId: 'alert-2',
        name: 'FRAUDSTER, Fiona',
        nameKey: 'fiona fraudster',
        dateOfBirth: '1985-07-14',
      },
    ]);
  });

  it('reads a file with only the header as an empty list', () => {
    expect(parseAlertCsv('id,name,date_of_birth\r\n')).toEqual([]);
  });

  it.each([
    ['', 'header'],
    ['name,id,date_of_birth\n', 'header'],
    ['id,name,date_of_birth\n,Alex Alertlist,\n', 'id and name are required'],
    ['id,name,date_of_birth\nalert-1,,\n', 'id and name are required'],
    ['id,name,date_of_birth\nalert-1,Alex Alertlist,1985-02-30\n', 'YYYY-MM-DD'],
    ['id,name,date_of_birth\nalert-1,Alex Alertlist,14/07/1985\n', 'YYYY-MM-DD'],
  ])('refuses the malformed list %j', (text, message) => {
    expect(() => parseAlertCsv(text)).toThrow(message);
  });
});

describe('the sandbox lists shipped in data/screening', async () => {
  const listings = parseListFiles(await readListFiles(SANDBOX_LISTS_DIR));
  const index = (list: 'sanctions' | 'alerts') => new ScreeningIndex(listings.filter((l) => l.list === list));
  const names = (list: 'sanctions' | 'alerts', person: Record<string, string>) =>
    index(list)
      .screen(person as never)
      .map((hit) => hit.listedName);

  it('lists Sandy Sanctioned without a date of birth, so any Sandy Sanctioned is matched (with her alias)', () => {
    expect(names('sanctions', { first_name: 'Sandy', last_name: 'Sanctioned', date_of_birth: '1990-01-01' })).toEqual([
      'SANCTIONED, Sandy',
    ]);
    expect(names('sanctions', { first_name: 'Sandie', last_name: 'Sanctionne' })).toEqual(['SANCTIONED, Sandy']);
  });

  it('lists Alex Alertlist without a date of birth, so any Alex Alertlist is on the alert list', () => {
    expect(names('alerts', { first_name: 'Alex', last_name: 'Alertlist', date_of_birth: '1970-05-05' })).toEqual([
      'Alex Alertlist',
    ]);
  });

  it('keeps only the individuals of sdn.csv, with the dates of birth its remarks give', () => {
    const sanctions = listings.filter((listing) => listing.list === 'sanctions');
    expect(sanctions.map((l) => [l.entryId, l.datesOfBirth.map((d) => d.day ?? d.year)])).toEqual([
      ['SDN-90001', []],
      ['SDN-90002', ['1961-03-12']],
      ['SDN-90003', ['1970-01-01', '1971-02-02']],
      ['SDN-90004', [1965]],
    ]);
  });

  it('holds one dated alert entry besides Alex Alertlist', () => {
    const alerts = listings.filter((listing) => listing.list === 'alerts');
    expect(alerts.map((l) => [l.name, l.datesOfBirth[0]?.day])).toEqual([
      ['Alex Alertlist', undefined],
      ['FRAUDSTER, Fiona', '1985-07-14'],
    ]);
  });

  it('does not match a person with the listed name but another year of birth to a dated entry', () => {
    expect(names('alerts', { first_name: 'Fiona', last_name: 'Fraudster', date_of_birth: '1986-07-15' })).toEqual([]);
  });
});
