import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ListFileError } from '#domain/csv';
import { parseOfacList } from '#domain/ofac-lists';

// OFAC's files as published (a snapshot kept in test/fixtures/ofac; see its README).
const file = (name: string) => ({ name, text: readFileSync(`test/fixtures/ofac/${name}`, 'utf8') });

describe('OFAC SDN and Consolidated files, read as published', () => {
  const sdn = parseOfacList({
    source: 'SDN',
    primary: file('sdn.csv'),
    aliases: file('alt.csv'),
    addresses: file('add.csv'),
  });

  it('keeps the individuals of sdn.csv, each with its a.k.a. and f.k.a. names from alt.csv (its n.k.a. names are entities’)', () => {
    expect(sdn).toHaveLength(4620);
    const semenova = sdn.find((listing) => listing.name === 'SEMENOVA, Olena Yurevna');
    expect(semenova?.entryId).toMatch(/^SDN-\d+$/);
    const aliased = sdn.filter((listing) => listing.names.length > 1);
    expect(aliased.length).toBeGreaterThan(2000);
    expect(new Set(sdn.flatMap((listing) => listing.names.map((name) => name.kind)))).toEqual(
      new Set(['primary', 'aka', 'fka']),
    );
  });

  it('takes the dates of birth from the remarks', () => {
    const dated = sdn.filter((listing) => listing.datesOfBirth.length > 0);
    expect(dated.length / sdn.length).toBeGreaterThan(0.8);
  });

  it('reads the Consolidated list (cons_prim.csv, cons_alt.csv) the same way, under its own source', () => {
    const cons = parseOfacList({ source: 'CONS', primary: file('cons_prim.csv'), aliases: file('cons_alt.csv') });
    expect(cons).toHaveLength(79);
    expect(cons.every((listing) => listing.entryId.startsWith('CONS-'))).toBe(true);
  });
});

describe('a malformed file names its file and line, and nothing is loaded', () => {
  const primary = { name: 'sdn.csv', text: '1,"DOE, Jane","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,-0-\n' };
  const read = (files: Partial<Parameters<typeof parseOfacList>[0]>) => () =>
    parseOfacList({ source: 'SDN', primary, ...files });

  it.each([
    [
      'a row with too few fields',
      { primary: { name: 'sdn.csv', text: `${primary.text}2,"ROE, Rick","individual"\n` } },
      'sdn.csv, line 2: expected 12 fields, found 3',
    ],
    [
      'an ent_num that is no number',
      { primary: { name: 'sdn.csv', text: primary.text.replace(/^1/, 'x') } },
      'sdn.csv, line 1: the first field (ent_num) must be a number',
    ],
    [
      'an individual without a name',
      { primary: { name: 'sdn.csv', text: primary.text.replace('DOE, Jane', '-') } },
      'sdn.csv, line 1: an individual without a name',
    ],
    [
      'an ent_num twice',
      { primary: { name: 'sdn.csv', text: primary.text + primary.text } },
      'sdn.csv, line 2: ent_num 1 appears twice',
    ],
    [
      'an alias of an entry the list lacks',
      { aliases: { name: 'alt.csv', text: '1,1,"aka","DOE, J",-0-\n9,2,"aka","X",-0-\n' } },
      'alt.csv, line 2: ent_num 9 is not listed',
    ],
    [
      'an alias of an unknown kind',
      { aliases: { name: 'alt.csv', text: '1,1,"alias","DOE, J",-0-\n' } },
      'alt.csv, line 1: unknown alias type "alias"',
    ],
    [
      'an address of an entry the list lacks',
      { addresses: { name: 'add.csv', text: '7,1,-0-,-0-,-0-,-0-\n' } },
      'add.csv, line 1: ent_num 7 is not listed',
    ],
    [
      'a quote never closed',
      { aliases: { name: 'alt.csv', text: '1,1,"aka","DOE, J,-0-\n' } },
      'alt.csv, line 1: a quoted field is never closed',
    ],
  ])('%s', (_, files, message) => {
    expect(read(files as never)).toThrow(ListFileError);
    expect(read(files as never)).toThrow(message);
  });

  it('counts lines across quoted line breaks and CRLF', () => {
    const text = '1,"DOE,\r\nJane","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,-0-\r\n2,"x"\r\n';
    expect(() => parseOfacList({ source: 'SDN', primary: { name: 'sdn.csv', text } })).toThrow('sdn.csv, line 3:');
  });
});
