import { listedWords } from './name-score';
import { jaroWinkler } from './name-similarity';
import { transliterationKeys } from './name-spellings';
import type { ListedPerson } from './screening-match';

// What the sanctions list says about spellings (docs/decisions.md#every-spelling-of-a-name-issue-44):
// OFAC lists a person under one name and gives the other spellings it is known by as
// aliases ("AL-QATIRJI, Muhammad" a.k.a. "AL-QATIRJI, Mohamed"). Two names of one listing
// that differ in a word of their given names or their surnames, the rest alike, write one
// word for the other. `npm run screening:spellings` mines the list's files for these and
// keeps the groups of spellings screening takes for one name (`listed-spellings.json`).

/** How often the names of one listing write one word for another: word → word → listings. */
export type Substitutions = ReadonlyMap<string, ReadonlyMap<string, number>>;

/**
 * Every substitution the names of the listings make, counted once per listing: two names
 * written "SURNAME, Given" (a name without a comma does not say which word is which), part
 * by part, the words both share taken out; what is left, when as many words on each side,
 * is paired most alike first (`jaroWinkler`), a particle ("al", "bin") only with a particle.
 * Initials are not words.
 */
export function aliasSubstitutions(listings: readonly ListedPerson[]): Substitutions {
  const counts = new Map<string, Map<string, number>>();
  const count = (a: string, b: string) => {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const row = counts.get(from) ?? new Map<string, number>();
      counts.set(from, row);
      row.set(to, (row.get(to) ?? 0) + 1);
    }
  };
  for (const listing of listings) {
    const names = listing.names.map((name) => listedWords(name.name)).filter((name) => name.needed.length > 0);
    const found = new Set<string>();
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        for (const part of [0, 1]) {
          for (const [a, b] of substituted(wordsOf(names[i], part), wordsOf(names[j], part))) {
            found.add(a < b ? `${a} ${b}` : `${b} ${a}`);
          }
        }
      }
    }
    for (const pair of found) count(...(pair.split(' ') as [string, string]));
  }
  return counts;
}

type Word = { readonly text: string; readonly particle: boolean };

const wordsOf = (name: ReturnType<typeof listedWords> | undefined, part: number): Word[] =>
  name?.tokens.filter((token, i) => name.part[i] === part && token.text.length > 1) ?? [];

/** The words one side writes for the other's: those left once the shared words are taken out. */
function substituted(a: readonly Word[], b: readonly Word[]): [string, string][] {
  const left = [...a];
  const right: Word[] = [];
  for (const word of b) {
    const same = left.findIndex((other) => other.text === word.text);
    if (same === -1) right.push(word);
    else left.splice(same, 1);
  }
  if (left.length === 0 || left.length !== right.length) return [];
  const pairs = left
    .flatMap((x) =>
      right.filter((y) => y.particle === x.particle).map((y) => ({ x, y, alike: jaroWinkler(x.text, y.text) })),
    )
    .sort((p, q) => q.alike - p.alike);
  const paired = new Set<Word>();
  return pairs.flatMap(({ x, y }) => {
    if (paired.has(x) || paired.has(y)) return [];
    paired.add(x);
    paired.add(y);
    return [[x.text, y.text] as [string, string]];
  });
}

/**
 * The least evidence that two words are spellings of one name: the list writes one for the
 * other in `LEAST_LISTINGS` listings (a single listing's alias may be another name the
 * person goes by), or in one fewer when they also share a transliteration key; they start
 * with letters of one Soundex class (vowels, `c`/`g`/`j`/`k`/`q`/`s`/`z`, …: "Chong" and
 * "Jong", "Gaddafi" and "Qadhafi"), are at least `LEAST_ALIKE` alike by Jaro-Winkler and
 * neither is less than half the other's length. This keeps out the other names a listing
 * gives ("Ali" for "Muhammad", "Abu …" for "Abd …", "Gomez" for "Gonzalez").
 */
const LEAST_LISTINGS = 3;
const LEAST_ALIKE = 0.7;
const LEAST_LENGTH_RATIO = 0.5;

/** Soundex's classes of a first letter: vowels and `h`, `w`, `y` as one. */
const FIRST_LETTER_CLASS: Readonly<Record<string, number>> = Object.fromEntries(
  ['aeiouyhw', 'bfpv', 'cgjkqsxz', 'dt', 'l', 'mn', 'r'].flatMap((letters, n) =>
    [...letters].map((letter) => [letter, n]),
  ),
);

function spellingsOfOneName(a: string, b: string, listings: number): boolean {
  if (listings < LEAST_LISTINGS - 1) return false;
  if (FIRST_LETTER_CLASS[a[0] ?? ''] !== FIRST_LETTER_CLASS[b[0] ?? '']) return false;
  if (Math.min(a.length, b.length) / Math.max(a.length, b.length) < LEAST_LENGTH_RATIO) return false;
  if (jaroWinkler(a, b) < LEAST_ALIKE) return false;
  if (listings >= LEAST_LISTINGS) return true;
  const keys = transliterationKeys(b);
  return transliterationKeys(a).some((key) => keys.includes(key));
}

/**
 * The groups of spellings of one name the list uses, each sorted, the groups in order of
 * their first word. Each word joins the spellings it is written for most often (ties
 * all), so a word the list also pairs now and then with another name (an alias "Mahmoud"
 * of a "Muhammad") stays with its own spellings ("Mahmud", "Mahmood"). Particles count as
 * words ("Sheikh", "Shaykh"), paired only with particles.
 */
export function mineSpellings(listings: readonly ListedPerson[]): string[][] {
  const substitutions = aliasSubstitutions(listings);
  const parent = new Map<string, string>();
  const root = (word: string): string => {
    let at = word;
    for (let up = parent.get(at); up !== undefined && up !== at; up = parent.get(at)) at = up;
    return at;
  };
  for (const [word, partners] of substitutions) {
    const spellings = [...partners].filter(([other, listed]) => spellingsOfOneName(word, other, listed));
    const most = Math.max(0, ...spellings.map(([, listed]) => listed));
    for (const [other, listed] of spellings) {
      if (listed < most) continue;
      for (const one of [word, other]) if (!parent.has(one)) parent.set(one, one);
      const [x, y] = [root(word), root(other)];
      if (x !== y) parent.set(x < y ? y : x, x < y ? x : y);
    }
  }
  const groups = new Map<string, string[]>();
  for (const word of parent.keys()) groups.set(root(word), [...(groups.get(root(word)) ?? []), word]);
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => group.sort())
    .sort((x, y) => ((x[0] ?? '') < (y[0] ?? '') ? -1 : 1));
}

/** The text of listed-spellings.json for the listings: what `npm run screening:spellings` writes. */
export const listedSpellingsFile = (listings: readonly ListedPerson[]): string =>
  `${JSON.stringify(
    { generated_by: 'npm run screening:spellings', groups: mineSpellings(listings).map((group) => group.join(' ')) },
    null,
    2,
  )}\n`;
