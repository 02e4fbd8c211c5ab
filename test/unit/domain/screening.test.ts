import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  findMatches,
  matches,
  nameKey,
  parseAlertCsv,
  parseCsv,
  parseSdnCsv,
  type ScreeningEntry,
  screeningReasons,
  sdnDatesOfBirth,
} from '#domain/screening';

const EMPTY = '"-0- "';
/**
 * One sdn.csv row, OFAC style: every field quoted, "-0- " where empty. `middle` holds
 * Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner.
 */
const sdnRow = (entNum: string, name: string, type: string, remarks = '-0- ', middle: string[] = []): string => {
  const quoted = [...middle, ...Array(8 - middle.length).fill('-0- ')].map((v) => `"${v}"`);
  return [entNum, `"${name}"`, type === '' ? EMPTY : `"${type}"`, ...quoted, `"${remarks}"`].join(',');
};

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

describe('OFAC SDN file', () => {
  it('keeps individuals and ignores entities, vessels and aircraft', () => {
    const text = [
      sdnRow('10', 'SANCTIONED, Sandy', 'individual'),
      sdnRow('11', 'ACME FRONT, LLC', ''),
      sdnRow('12', 'SEA DRIFTER', 'vessel', '-0- ', [
        'SDGT',
        '-0- ',
        'ZZZ1',
        'Cargo',
        '1,000',
        '2,000',
        'Nowhere',
        'ACME',
      ]),
      sdnRow('13', 'SKY HOPPER', 'aircraft'),
    ].join('\r\n');
    expect(parseSdnCsv(text)).toEqual([
      { list: 'sanctions', entryId: '10', name: 'SANCTIONED, Sandy', nameKey: 'sanctioned sandy' },
    ]);
  });

  it('reads SDN_Type case-insensitively', () => {
    expect(parseSdnCsv(sdnRow('10', 'SANCTIONED, Sandy', 'Individual'))).toHaveLength(1);
  });

  it('builds the key from every name word of "LAST, First Middle", LAST possibly several words', () => {
    const [listed] = parseSdnCsv(sdnRow('20', 'DE LA CRUZ, Maria Elena', 'individual'));
    expect(listed!.nameKey).toBe(nameKey('Maria Elena', 'De La Cruz'));
    expect(matches({ first_name: 'Maria', middle_name: 'Elena', last_name: 'de la Cruz' }, listed!)).toBe(true);
  });

  it('takes a full "DOB 12 Mar 1961" in Remarks as the date of birth', () => {
    const [listed] = parseSdnCsv(sdnRow('30', 'DOBLISTED, Casey', 'individual', 'DOB 12 Mar 1961; POB Nowhere.'));
    expect(listed!.dateOfBirth).toBe('1961-03-12');
    expect(listed!.entryId).toBe('30');
  });

  it('produces one entry per full DOB, the entry id suffixed #n', () => {
    const remarks = 'DOB 01 Jan 1970; alt. DOB 02 Feb 1971; nationality Nowhere.';
    const listed = parseSdnCsv(sdnRow('40', 'TWICEBORN, Robin', 'individual', remarks));
    expect(listed.map((e) => [e.entryId, e.dateOfBirth])).toEqual([
      ['40#1', '1970-01-01'],
      ['40#2', '1971-02-02'],
    ]);
  });

  it.each([
    'DOB 1961',
    'DOB circa 1961',
    'DOB Mar 1961',
    'DOB 12 Mar 1961 to 15 Mar 1961',
    'DOB 1961 to 1963',
    'DOB 31 Feb 1961',
    'DOB 12 Mar 1961; alt. DOB 1962',
    'POB Nowhere',
    '-0- ',
  ])('leaves the date of birth undefined (matches any) for remarks %j', (remarks) => {
    const listed = parseSdnCsv(sdnRow('50', 'CIRCADATE, Jordan', 'individual', remarks));
    expect(listed).toHaveLength(1);
    expect(listed[0]!.dateOfBirth).toBeUndefined();
    expect(listed[0]!.entryId).toBe('50');
  });

  it('reads the dates OFAC writes with one-digit days and full month names', () => {
    expect(sdnDatesOfBirth('DOB 1 Sep 1980;')).toEqual(['1980-09-01']);
    expect(sdnDatesOfBirth('DOB 01 September 1980;')).toEqual(['1980-09-01']);
    expect(sdnDatesOfBirth('DOB 05 Jan 1980; alt. DOB 05 Jan 1980;')).toEqual(['1980-01-05']);
  });

  it('ignores the control-Z line that ends the file and empty lines', () => {
    const text = `${sdnRow('10', 'SANCTIONED, Sandy', 'individual')}\r\n\r\n\u001a`;
    expect(parseSdnCsv(text)).toHaveLength(1);
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

describe('the sandbox lists shipped in data/screening', () => {
  const read = (file: string) => readFileSync(new URL(`../../../data/screening/${file}`, import.meta.url), 'utf8');
  const sanctions = parseSdnCsv(read('sdn.csv'));
  const alerts = parseAlertCsv(read('alerts.csv'));

  it('lists Sandy Sanctioned without a date of birth, so any Sandy Sanctioned is matched_watchlist', () => {
    const person = { first_name: 'Sandy', last_name: 'Sanctioned', date_of_birth: '1990-01-01' };
    expect(findMatches(person, sanctions).map((e) => e.name)).toEqual(['SANCTIONED, Sandy']);
    expect(screeningReasons(person, [...sanctions, ...alerts])).toEqual(['matched_watchlist']);
  });

  it('lists Alex Alertlist without a date of birth, so any Alex Alertlist is matched_alertlist', () => {
    const person = { first_name: 'Alex', last_name: 'Alertlist', date_of_birth: '1970-05-05' };
    expect(screeningReasons(person, [...sanctions, ...alerts])).toEqual(['matched_alertlist']);
  });

  it('keeps only the individuals of sdn.csv, with the date of birth its remarks give', () => {
    expect(sanctions.map((e) => [e.entryId, e.dateOfBirth])).toEqual([
      ['90001', undefined],
      ['90002', '1961-03-12'],
      ['90003#1', '1970-01-01'],
      ['90003#2', '1971-02-02'],
      ['90004', undefined],
    ]);
  });

  it('holds one dated alert entry besides Alex Alertlist', () => {
    expect(alerts.map((e) => [e.name, e.dateOfBirth])).toEqual([
      ['Alex Alertlist', undefined],
      ['FRAUDSTER, Fiona', '1985-07-14'],
    ]);
  });

  it('does not match a person with the listed name but another date of birth to a dated entry', () => {
    const person = { first_name: 'Fiona', last_name: 'Fraudster', date_of_birth: '1985-07-15' };
    expect(screeningReasons(person, alerts)).toEqual([]);
  });
});
