import table from './listed-spellings.json' with { type: 'json' };

// The spellings of one name that screening takes for one another (docs/decisions.md#every-spelling-of-a-name-issue-44):
// the ones the sanctions list itself uses for a word in the aliases of its listings
// (`listed-spellings.json`, mined from OFAC's files by `npm run screening:spellings`), and,
// for a word the list does not spell otherwise, a transliteration key that the
// romanisations of one Arabic, Persian or Slavic name share.

/**
 * The keys a word's spelling reduces to when romanisations differ: consonants by what
 * transliteration tables write for one letter (`q`/`k`/`g`/hard `c`, `ch`/`j`/`zh`, `kh`/`h`,
 * `ph`/`f`, `w`/`v`, `z`/`s`, `x`/`ks`), an `h` after a consonant or ending the word dropped,
 * doubled letters as one, and every vowel (with `y` or `w` beside a vowel: "ay", "ey", "aw")
 * as one mark, so that where the vowels fall still counts: "Mohamed" and "Muhammad" share
 * `mVhVmVd`, "Mahmoud" (`mVhmVd`) does not. Arabic's ث and ذ are written `th`/`s`/`t` and
 * `dh`/`d`/`z`, so a word with `th` or `dh` has a key for each ("Uthman" meets "Osman").
 * A word starting with `y` or `j` before a vowel keeps it ("Yusuf", "Jusuf"), since those
 * never are the vowel that starts "Usuf".
 */
export function transliterationKeys(word: string): string[] {
  const consonants = word
    .replace(/sch/g, 'sh')
    .replace(/dzh|dj|zh|ch/g, 'j')
    .replace(/ph/g, 'f')
    .replace(/kh/g, 'h')
    .replace(/ck|x/g, (letters) => (letters === 'x' ? 'ks' : 'k'))
    .replace(/gh|q|g|c(?![eiy])/g, 'k')
    .replace(/c/g, 's')
    .replace(/z/g, 's')
    .replace(/^[jy](?=[aeiou])/, 'Y')
    .replace(/(?<=[aeiou])h$/, '');
  const vowels = consonants
    .replace(/(?<=[aeiou])[yw]|(?<=.)[yw](?=[aeiou])/g, 'a')
    .replace(/[aeiouy]+/g, 'V')
    .replace(/w/g, 'v')
    .replace(/Y/g, 'y');
  const keys = [vowels];
  if (vowels.includes('th')) keys.push(vowels.replace(/th/g, 's'), vowels.replace(/th/g, 't'));
  if (vowels.includes('dh')) keys.push(vowels.replace(/dh/g, 'd'), vowels.replace(/dh/g, 's'));
  const reduced = keys.map((key) => key.replace(/(?<=[^V])h/g, '').replace(/(.)\1+/g, '$1'));
  return [...new Set(reduced)];
}

/**
 * A key counts in screening only with this many consonants: a short name is mostly its
 * vowels, and "Ross" and "Ruiz", "Lee" and "Liu" are other names.
 */
const LEAST_CONSONANTS = 3;

/** The transliteration keys screening compares a word by: those of `LEAST_CONSONANTS` consonants or more. */
export const spellingKeys = (word: string): string[] =>
  transliterationKeys(word).filter((key) => key.replace(/V/g, '').length >= LEAST_CONSONANTS);

/** The list's spellings: each word it writes for another, with the number of its group. */
const groups = new Map<string, number>(
  table.groups.flatMap((group, number) => group.split(' ').map((word) => [word, number] as const)),
);

/** What screening knows of a word's spelling: its group in the list's spellings, if any, and its transliteration keys. */
export interface NameSpelling {
  readonly group: number | undefined;
  readonly keys: readonly string[];
}

export const nameSpelling = (word: string): NameSpelling => ({ group: groups.get(word), keys: spellingKeys(word) });

/** How the spellings of two words relate, from the strongest evidence to none. */
export type SpellingRelation = 'listed' | 'other-names' | 'transliterated' | 'none';

/**
 * Whether the list spells the two words as one name (`listed`), as two names it spells
 * otherwise (`other-names`: "Hasan" and "Husayn", "Mahmoud" and "Muhammad" share a key
 * but the list knows them apart), or, when it does not know both, whether they share a
 * transliteration key (`transliterated`).
 */
export function spellingRelation(a: NameSpelling, b: NameSpelling): SpellingRelation {
  if (a.group !== undefined && a.group === b.group) return 'listed';
  if (a.group !== undefined && b.group !== undefined) return 'other-names';
  return a.keys.some((key) => b.keys.includes(key)) ? 'transliterated' : 'none';
}

/** The blocks an index files a word under so that its other spellings find it: its keys, and its group. */
export const spellingBlocks = ({ group, keys }: NameSpelling): string[] => [
  ...keys.map((key) => `~${key}`),
  ...(group === undefined ? [] : [`#${group}`]),
];
