import { type NameSpelling, nameSpelling, spellingBlocks, spellingRelation } from './name-spellings';
import { skeleton } from './name-tokens';

// How alike two words are, from 0 (nothing shared) to 1 (the same word): Jaro-Winkler,
// the measure OFAC's own Sanctions List Search and open-source screening (moov-io's
// Watchman) build on, adjusted for length, or near 1 when the two are spellings of one
// romanisation skeleton (`skeleton`) or spellings the list itself uses for one name, and
// high when they share a transliteration key (`spellingKeys`), so a slip of a letter and
// another romanisation both score high while different names score low.

// Scratch flags for `jaro`, reused across calls (names are short; longer words get their own).
let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

/** Jaro similarity: characters in common within a window, less half their transpositions. */
export function jaro(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  if (a.length === 0 || b.length === 0) return 0;
  if (a.length > flagsA.length || b.length > flagsB.length) {
    flagsA = new Uint8Array(Math.max(a.length, b.length) * 2);
    flagsB = new Uint8Array(flagsA.length);
  }
  flagsA.fill(0, 0, a.length);
  flagsB.fill(0, 0, b.length);
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const code = a.charCodeAt(i);
    const to = Math.min(b.length - 1, i + window);
    for (let j = Math.max(0, i - window); j <= to; j++) {
      if (flagsB[j] === 1 || b.charCodeAt(j) !== code) continue;
      flagsA[i] = 1;
      flagsB[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transposed = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    if (flagsA[i] === 0) continue;
    while (flagsB[j] === 0) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transposed++;
    j++;
  }
  return (matches / a.length + matches / b.length + (matches - transposed / 2) / matches) / 3;
}

/** Jaro-Winkler: Jaro raised for a common prefix of up to 4 letters (scale 0.1), as Winkler defined it. */
export function jaroWinkler(a: string, b: string): number {
  const similarity = jaro(a, b);
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return similarity + prefix * 0.1 * (1 - similarity);
}

/**
 * What a skeleton match is worth: two spellings that reduce to one skeleton are very
 * likely one name, but not certainly, so never quite the same word. Two spellings the
 * list writes for one name (`listedSpellingGroup`) are worth as much.
 */
const SKELETON_WEIGHT = 0.97;
/**
 * What a shared transliteration key is worth (`spellingKeys`): where the vowels fall and
 * the consonants' classes agree, the letters may not ("Uthman" and "Osman", "Sulayman"
 * and "Soliman"); more than a slip of one letter in a short word, less than a skeleton.
 */
const TRANSLITERATION_WEIGHT = 0.9;

/**
 * What a word's spelling reduces to: its skeleton, its group in the list's spellings, its
 * transliteration keys, and the blocks those share (`spellingBlockKeys`).
 */
export interface Spelling extends NameSpelling {
  readonly skeleton: string;
  readonly blocks: readonly string[];
}

/** A word's spelling reduced (an index keeps it with the word; `spellingOf` remembers it). */
export function spelling(word: string): Spelling {
  const named = nameSpelling(word);
  return { skeleton: skeleton(word), ...named, blocks: spellingBlocks(named) };
}

/**
 * Spellings already reduced: a list's words recur across its names and every person's are
 * compared with thousands, so each is reduced once (bounded: a long-lived container
 * screening many persons starts the memo over rather than grow without end).
 */
const spellings = new Map<string, Spelling>();
const SPELLING_MEMO_LIMIT = 200_000;

export function spellingOf(word: string): Spelling {
  let found = spellings.get(word);
  if (found === undefined) {
    if (spellings.size >= SPELLING_MEMO_LIMIT) spellings.clear();
    found = spelling(word);
    spellings.set(word, found);
  }
  return found;
}

/** What two words are worth at least, whatever their letters, as spellings of one name the list writes, or by their keys. */
function namedSpellingFloor(a: NameSpelling, b: NameSpelling): number {
  const relation = spellingRelation(a, b);
  return relation === 'listed' ? SKELETON_WEIGHT : relation === 'transliterated' ? TRANSLITERATION_WEIGHT : 0;
}

/**
 * Jaro-Winkler forgives a missing ending ("Hernan" is 93 % of "Hernandez"): words of
 * quite different lengths lose up to 30 % of their length ratio's shortfall, as Watchman
 * does, below a ratio of 0.9.
 */
function lengthFactor(a: string, b: string): number {
  const ratio = Math.min(a.length, b.length) / Math.max(a.length, b.length);
  return ratio < 0.9 ? 1 - (1 - ratio) * 0.3 : 1;
}

// Scratch rows for `editDistance`: two rows back (for swaps), the last row and this one.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The optimal string alignment distance (letters changed, dropped, added, or two
 * neighbours swapped), or `limit + 1` once it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (b.length + 1 > (rows[0]?.length ?? 0)) rows = rows.map(() => new Int32Array((b.length + 1) * 2));
  let [before, previous, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      row[j] = value;
      if (value < least) least = value;
    }
    if (least > limit) return limit + 1;
    [before, previous, row] = [previous, row, before];
  }
  return previous[b.length] as number;
}

/**
 * A slip's worth: each edit costs 0.6 of its share of the longer word, so one slip in a
 * surname of 8 letters leaves 0.93, in one of 4 letters 0.85, two slips in 8 letters
 * 0.85. Jaro-Winkler alone undervalues a letter added early in a word ("Maubarak" for
 * "Mubarak": 0.82), since its matching pairs each letter with the first unpaired one.
 */
const EDIT_WEIGHT = 0.6;
const EDITS_FORGIVEN = 2;

function editSimilarity(a: string, b: string): number {
  const distance = editDistance(a, b, EDITS_FORGIVEN);
  return distance > EDITS_FORGIVEN ? 0 : 1 - (EDIT_WEIGHT * distance) / Math.max(a.length, b.length);
}

/**
 * How alike two folded words are (0–1): the higher of their Jaro-Winkler (length-adjusted)
 * and their edit similarity, or, when they are spellings of one name, at least what that
 * is worth: one skeleton (another romanisation) or one name in the list's spellings
 * `SKELETON_WEIGHT`, one transliteration key `TRANSLITERATION_WEIGHT`.
 */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const [x, y] = [spellingOf(a), spellingOf(b)];
  const floor = x.skeleton === y.skeleton ? SKELETON_WEIGHT : namedSpellingFloor(x, y);
  return Math.max(jaroWinkler(a, b) * lengthFactor(a, b), editSimilarity(a, b), floor);
}

/**
 * Whether two words are at least `minimum` alike (`wordSimilarity`), deciding with the
 * cheapest measure that can; an index passes the spellings it keeps (`spelling`).
 */
export function alikeAtLeast(a: string, b: string, minimum: number, x = spellingOf(a), y = spellingOf(b)): boolean {
  return lettersAlikeAtLeast(a, b, minimum, x, y) || namedSpellingFloor(x, y) >= minimum;
}

/**
 * Whether two words are at least `minimum` alike by their letters or their skeleton: all
 * of `alikeAtLeast` for two words that share none of their spelling blocks
 * (`spellingBlockKeys`), which alone the list's spellings and transliteration keys relate.
 */
export function lettersAlikeAtLeast(
  a: string,
  b: string,
  minimum: number,
  x: Pick<Spelling, 'skeleton'> = spellingOf(a),
  y: Pick<Spelling, 'skeleton'> = spellingOf(b),
): boolean {
  if (a === b || jaroWinkler(a, b) * lengthFactor(a, b) >= minimum) return true;
  if (x.skeleton === y.skeleton && SKELETON_WEIGHT >= minimum) return true;
  const longest = Math.max(a.length, b.length);
  const fewestEdits = Math.abs(a.length - b.length);
  if (fewestEdits > EDITS_FORGIVEN || 1 - (EDIT_WEIGHT * fewestEdits) / longest < minimum) return false;
  return editSimilarity(a, b) >= minimum;
}

/**
 * Soundex's letter classes, vowels and `h`, `w`, `y` as 0: the block a word is found under
 * (`blockKey`).
 */
const CLASS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ['aeiouyhw', '0'],
    ['bfpv', '1'],
    ['cgjkqsxz', '2'],
    ['dt', '3'],
    ['l', '4'],
    ['mn', '5'],
    ['r', '6'],
  ].flatMap(([letters = '', code]) => [...letters].map((letter) => [letter, code])),
);

/**
 * The blocks a word is filed and looked up under: phonetic keys of its first three
 * sounds taken two at a time (the first sound, then the consonants of its skeleton, each
 * by Soundex class), so that one slip — a letter changed, dropped, added or swapped —
 * leaves at least one key of the word unchanged ("Kelmendi" and "Kelmndi" share all three,
 * "Kelmendi" and "Gelmendi" the one without the first sound). Words that could score high
 * almost always share one; a search compares a word only with the words of its blocks.
 */
export function blockKeys(word: string): string[] {
  const sounds = word;
  const first = CLASS[sounds[0] ?? ''] ?? '9';
  const rest = [...sounds.slice(1)].map((letter) => CLASS[letter] ?? '9').filter((code) => code !== '0');
  const [second = '-', third = '-'] = rest;
  return [`${first}${second}`, `${first}${third}`, `${second}${third}`];
}

/**
 * The blocks other spellings of a word's name share with it however their letters differ
 * ("Uthman" and "Osman"): its transliteration keys and its group in the list's spellings.
 * Two words these relate always share one.
 */
export const spellingBlockKeys = (spelled: Spelling): readonly string[] => spelled.blocks;
