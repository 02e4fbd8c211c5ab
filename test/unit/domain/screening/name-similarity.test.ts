import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockKeys, editDistance, jaroWinkler, wordSimilarity } from '#domain/name-similarity';
import { skeleton } from '#domain/name-tokens';
import { OTHER_SPELLINGS } from '#test/support/screening-variants';

describe('Jaro-Winkler', () => {
  it.each([
    ['martha', 'marhta', 0.961],
    ['dwayne', 'duane', 0.84],
    ['dixon', 'dicksonx', 0.813],
  ])('scores %s / %s as Winkler published (%d)', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 3);
  });

  it('is 1 for the same word and 0 for words with no letter in common', () => {
    expect(jaroWinkler('kelmendi', 'kelmendi')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });
});

describe('edit distance (letters changed, dropped, added, neighbours swapped)', () => {
  it.each([
    ['kelmendi', 'kelmndi', 1],
    ['mubarak', 'maubarak', 1],
    ['semenova', 'semeonva', 1],
    ['kelmendi', 'kalmandi', 2],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b, 2)).toBe(distance);
  });

  it('stops at the limit: more edits than allowed answer limit + 1', () => {
    expect(editDistance('kelmendi', 'smith', 2)).toBe(3);
  });
});

describe('how alike two words are', () => {
  it('forgives one slip of a letter in a surname (≥ 0.9)', () => {
    for (const [a, b] of [
      ['kelmendi', 'kelmndi'],
      ['mubarak', 'maubarak'],
      ['semenova', 'semenvoa'],
    ]) {
      expect(wordSimilarity(a as string, b as string)).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('takes another romanisation of one name as almost the same word (one skeleton: 0.97)', () => {
    expect(skeleton('mouhamad')).toBe(skeleton('muhammad'));
    expect(skeleton('aleksandr')).toBe(skeleton('alexandr'));
    expect(skeleton('jusuf')).toBe(skeleton('yusuf'));
    expect(wordSimilarity('qadhafi', 'kadhafi')).toBeGreaterThanOrEqual(0.97);
  });

  it.each(OTHER_SPELLINGS)(
    'takes %s and %s, spellings of one name the list writes or transliterates otherwise, as one name (≥ 0.9)',
    (a, b) => {
      expect(wordSimilarity(a, b)).toBeGreaterThanOrEqual(0.9);
    },
  );

  it('keeps apart names the list spells as two, though their transliteration keys agree: Mahmoud and Muhammad, Hasan and Husayn', () => {
    expect(wordSimilarity('mahmoud', 'muhammad')).toBeLessThan(0.85);
    expect(wordSimilarity('hasan', 'husayn')).toBeLessThan(0.85);
  });

  it('keeps different names apart: other given names, a shorter name that is a prefix, short names of one vowel skeleton', () => {
    expect(wordSimilarity('maria', 'olena')).toBeLessThan(0.7);
    expect(wordSimilarity('hernan', 'hernandez')).toBeLessThan(0.85);
    expect(wordSimilarity('ross', 'ruiz')).toBeLessThan(0.8);
    expect(wordSimilarity('lee', 'liu')).toBeLessThan(0.8);
  });
});

describe('blocks', () => {
  const word = fc.stringMatching(/^[a-z]{4,12}$/);
  const slipped = word.chain((w) =>
    fc.tuple(
      fc.constant(w),
      fc.integer({ min: 0, max: w.length - 1 }),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
    ),
  );

  it('a word and the word with one slip anywhere (changed, dropped, added, swapped) share a block', () => {
    fc.assert(
      fc.property(slipped, ([w, at, kind, letter]) => {
        const other =
          kind === 0
            ? `${w.slice(0, at)}${letter}${w.slice(at + 1)}`
            : kind === 1
              ? `${w.slice(0, at)}${w.slice(at + 1)}`
              : kind === 2
                ? `${w.slice(0, at)}${letter}${w.slice(at)}`
                : `${w.slice(0, at)}${w[at + 1] ?? ''}${w[at]}${w.slice(at + 2)}`;
        const keys = new Set(blockKeys(w));
        expect(blockKeys(other).some((key) => keys.has(key))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
