import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spellingKeys, transliterationKeys } from '#domain/name-spellings';
import { parseOfacList } from '#domain/ofac-lists';
import type { ListedPerson } from '#domain/screening-match';
import { aliasSubstitutions, listedSpellingsFile, mineSpellings } from '#domain/spelling-mining';
import { OTHER_SPELLINGS } from '#test/support/screening-variants';

const read = (path: string) => readFileSync(path, 'utf8');
const file = (name: string) => ({ name, text: read(`test/fixtures/ofac/${name}`) });

describe('transliteration keys', () => {
  it.each([...OTHER_SPELLINGS, ['gaddafi', 'qadhafi'], ['chong', 'jong']] as const)('%s and %s share one', (a, b) => {
    expect(transliterationKeys(a).filter((key) => transliterationKeys(b).includes(key))).not.toEqual([]);
  });

  it('counts in screening only with three consonants or more: a short name is mostly its vowels', () => {
    expect(spellingKeys('osman')).toEqual(['VsmVn']);
    expect(spellingKeys('ross')).toEqual([]);
    expect(spellingKeys('lee')).toEqual([]);
  });

  it.each([
    ['mahmoud', 'muhammad'],
    ['salman', 'sulayman'],
    ['ivan', 'ian'],
    ['gomez', 'gonzalez'],
  ])('%s and %s share none: where the vowels fall counts, and a consonant is no glide', (a, b) => {
    expect(transliterationKeys(a).filter((key) => transliterationKeys(b).includes(key))).toEqual([]);
  });
});

describe('the spellings the list’s aliases use', () => {
  const person = (entryId: string, ...names: string[]): ListedPerson => ({
    list: 'sanctions',
    source: 'SDN',
    entryId,
    name: names[0] as string,
    names: names.map((name, i) => ({ name, kind: i === 0 ? 'primary' : 'aka' })),
    datesOfBirth: [],
  });

  it('counts a word written for another once per listing, part by part, shared words taken out', () => {
    const substitutions = aliasSubstitutions([
      person('SDN-1', 'AL-QATIRJI, Muhammad Nasir', 'AL-QATIRJI, Mohamed Nasser', 'AL-QATIRJI, Mohamed Nasir'),
      person('SDN-2', 'SABBAGH, Muhammad', 'SABBAGH, Mohamed', 'Mohamed Sabbagh'),
    ]);

    expect(substitutions.get('muhammad')?.get('mohamed')).toBe(2);
    expect(substitutions.get('nasir')?.get('nasser')).toBe(1);
    expect(substitutions.get('qatirji')).toBeUndefined();
  });

  it('groups a word with the spellings it is written for most often, not with another name an alias gives now and then', () => {
    const listings = [
      ...['1', '2', '3'].map((n) => person(`SDN-${n}`, `A${n}, Muhammad`, `A${n}, Mohamed`)),
      ...['4', '5', '6', '7'].map((n) => person(`SDN-${n}`, `B${n}, Mahmoud`, `B${n}, Mahmud`)),
      ...['8', '9'].map((n) => person(`SDN-${n}`, `C${n}, Mahmoud`, `C${n}, Muhammad`)),
      ...['10', '11', '12'].map((n) => person(`SDN-${n}`, `D${n}, Ali`, `D${n}, Muhammad`)),
    ];

    expect(mineSpellings(listings)).toEqual([
      ['mahmoud', 'mahmud'],
      ['mohamed', 'muhammad'],
    ]);
  });

  it('are, in functions/domain/listed-spellings.json, what the list snapshot gives (else run `npm run screening:spellings`)', () => {
    const listings = [
      ...parseOfacList({ source: 'SDN', primary: file('sdn.csv'), aliases: file('alt.csv') }),
      ...parseOfacList({ source: 'CONS', primary: file('cons_prim.csv'), aliases: file('cons_alt.csv') }),
    ];

    expect(read('functions/domain/listed-spellings.json')).toBe(listedSpellingsFile(listings));
  });
});
