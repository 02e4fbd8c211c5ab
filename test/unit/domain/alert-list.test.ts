import { describe, expect, it } from 'vitest';
import { parseAlertList } from '#domain/alert-list';
import { parseCsv } from '#domain/csv';
import { ScreeningIndex } from '#domain/screening-index';
import { parseListFiles, readListFiles, SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';

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
    expect(parseAlertList(text)).toEqual([
      {
        list: 'alerts',
        source: 'ALERTS',
        entryId: 'ALERTS-alert-1',
        name: 'Alex Alertlist',
        names: [{ name: 'Alex Alertlist', kind: 'primary' }],
        datesOfBirth: [],
      },
      {
        list: 'alerts',
        source: 'ALERTS',
        entryId: 'ALERTS-alert-2',
        name: 'FRAUDSTER, Fiona',
        names: [{ name: 'FRAUDSTER, Fiona', kind: 'primary' }],
        datesOfBirth: [{ year: 1985, toYear: 1985, day: '1985-07-14' }],
      },
    ]);
  });

  it('reads a file with only the header as an empty list', () => {
    expect(parseAlertList('id,name,date_of_birth\r\n')).toEqual([]);
  });

  it.each([
    ['', 'header'],
    ['name,id,date_of_birth\n', 'header'],
    ['id,name,date_of_birth\n,Alex Alertlist,\n', 'id and name are required'],
    ['id,name,date_of_birth\nalert-1,,\n', 'id and name are required'],
    ['id,name,date_of_birth\nalert-1,Alex Alertlist,1985-02-30\n', 'YYYY-MM-DD'],
    ['id,name,date_of_birth\nalert-1,Alex Alertlist,14/07/1985\n', 'YYYY-MM-DD'],
  ])('refuses the malformed list %j', (text, message) => {
    expect(() => parseAlertList(text)).toThrow(message);
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
