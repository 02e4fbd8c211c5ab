import { wordSimilarity } from './name-similarity';
import { type NameToken, nameTokens } from './name-tokens';

// How well a person's name matches one listed name (a primary name or an alias), from 0
// to 1 (docs/api.md#screening). The person's words are paired with the listed words, each
// word at most once, best pairs first, in any order (lists write "LAST, First", partners
// "First Last", and transliterated names come in every order); two or three adjacent words
// of one part of a name may pair with one word written together ("Al Tikriti" /
// "ALTIKRITI"). The score is how alike the weaker of the person's two needed words (given
// name, surname) is to the word it pairs with, less small costs: each other word of
// either side left unpaired (a middle name, a second surname; particles are free), the
// listed given name or surname left unpaired, a needed word paired across roles.

/** The name of a person as partners send it. */
export interface PersonName {
  readonly first_name: string;
  readonly middle_name?: string;
  readonly last_name: string;
}

/** A person's words, each marked as needed (the first word of the given name and of the surname) or not. */
export interface PersonWords {
  readonly tokens: readonly NameToken[];
  readonly core: readonly boolean[];
  /** Which part of the name each word is in: 0 given name, 1 middle name, 2 surname. */
  readonly part: readonly number[];
}

/** Each word, with the adjacent pairs written together, as the units that pair up. */
interface Unit {
  readonly text: string;
  /** Indexes of the words it covers. */
  readonly covers: readonly number[];
}

/** What an unpaired optional word of the person costs. */
const UNPAIRED_PERSON_WORD = 0.04;
/** What an unpaired word of the listed name costs, at most `UNPAIRED_LISTED_LIMIT` times. */
const UNPAIRED_LISTED_WORD = 0.02;
const UNPAIRED_LISTED_LIMIT = 3;
/**
 * What it costs when the listed given name or the listed (first) surname goes unpaired: a
 * person whose names pair with a listed person's middle name or second surname instead is
 * less likely that person than one who leaves out a middle name or a second surname.
 */
const UNPAIRED_LISTED_NEEDED_WORD = 0.1;
/**
 * What each needed word paired across roles costs (a given name with a listed surname):
 * order is tolerated, since partners swap names, but a swapped name that is also only
 * alike ("Mark Martinez" for "MARKS, Martin") is weaker evidence than either alone.
 */
const CROSSED_ROLE = 0.03;

/** A listed name's words, and which are its given name and surname, when the list says. */
export interface ListedWords {
  readonly tokens: readonly NameToken[];
  /** Indexes of the first word of the given name and of the surname ("LAST, First Middle"); none without a comma. */
  readonly needed: readonly number[];
  /** Which part of the name each word is in: 0 surname, 1 given names (all 0 without a comma). */
  readonly part: readonly number[];
}

/** A listed name as its words: "LAST, First Middle" tells the given name and surname; a name without a comma does not. */
export function listedWords(name: string): ListedWords {
  const comma = name.indexOf(',');
  if (comma === -1) {
    const tokens = nameTokens(name);
    return { tokens, needed: [], part: tokens.map(() => 0) };
  }
  const surname = nameTokens(name.slice(0, comma));
  const given = nameTokens(name.slice(comma + 1));
  const firstOf = (words: NameToken[]) => words.findIndex((token) => !token.particle);
  const needed = [firstOf(surname), firstOf(given) === -1 ? -1 : surname.length + firstOf(given)];
  return {
    tokens: [...surname, ...given],
    needed: needed.filter((index) => index >= 0),
    part: [...surname.map(() => 0), ...given.map(() => 1)],
  };
}

export function personWords(person: PersonName): PersonWords {
  const parts = [person.first_name, person.middle_name ?? '', person.last_name].map(nameTokens);
  const [given = [], middle = [], surname = []] = parts;
  // The first real word of the part; a part of particles alone ("Haji") needs its first.
  const firstOf = (words: NameToken[]) => {
    const real = words.findIndex((word) => !word.particle && word.text.length > 1);
    return real === -1 ? 0 : real;
  };
  const core = [
    ...given.map((_, i) => i === firstOf(given)),
    ...middle.map(() => false),
    ...surname.map((_, i) => i === firstOf(surname)),
  ];
  const part = parts.flatMap((words, n) => words.map(() => n));
  return { tokens: [...given, ...middle, ...surname], core, part };
}

/** Each word, and each two or three adjacent words of one part of the name written together ("Abd al-Samad": "abdalsamad"). */
function unitsOf(tokens: readonly NameToken[], part: readonly number[]): Unit[] {
  const units: Unit[] = tokens.map((token, i) => ({ text: token.text, covers: [i] }));
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (part[i] !== part[i + 1]) continue;
    units.push({ text: `${tokens[i]?.text}${tokens[i + 1]?.text}`, covers: [i, i + 1] });
    if (i + 2 < tokens.length && part[i + 2] === part[i]) {
      units.push({ text: `${tokens[i]?.text}${tokens[i + 1]?.text}${tokens[i + 2]?.text}`, covers: [i, i + 1, i + 2] });
    }
  }
  return units;
}

/**
 * A particle alone pairs only with a particle ("de" is no evidence for "Dei"), and words
 * written together pair only with a single word.
 */
function mayPair(a: Unit, b: Unit, left: readonly NameToken[], right: readonly NameToken[]): boolean {
  if (a.covers.length > 1 || b.covers.length > 1) return a.covers.length === 1 || b.covers.length === 1;
  return left[a.covers[0] ?? 0]?.particle === right[b.covers[0] ?? 0]?.particle;
}

/** A person's given or middle name with a listed given name, a surname with a listed surname (a listed name without a comma has no roles). */
const rolesAgree = (personPart = 0, listedPart = 0, listed: ListedWords) =>
  listed.needed.length === 0 || (personPart === 2) === (listedPart === 0);

/**
 * The score of a person's words against a listed name's, 0–1: the similarity of the
 * weaker of the person's two needed words (given name, surname) to the listed word each
 * pairs with, less what the unpaired words cost.
 */
export function scoreWords(person: PersonWords, listedName: ListedWords): number {
  const listed = listedName.tokens;
  const left = unitsOf(person.tokens, person.part);
  const right = unitsOf(listed, listedName.part);
  const pairs: { similarity: number; a: Unit; b: Unit }[] = [];
  for (const a of left) {
    for (const b of right) {
      if (mayPair(a, b, person.tokens, listed)) pairs.push({ similarity: wordSimilarity(a.text, b.text), a, b });
    }
  }
  // Best first; at equal similarity a pair of real words before a pair of particles, then
  // a pair whose roles agree (given with given, surname with surname), then single words
  // before words written together.
  const order = (pair: (typeof pairs)[number]) => [
    -pair.similarity,
    pair.a.covers.every((i) => person.tokens[i]?.particle) ? 1 : 0,
    rolesAgree(person.part[pair.a.covers[0] ?? 0], listedName.part[pair.b.covers[0] ?? 0], listedName) ? 0 : 1,
    pair.a.covers.length + pair.b.covers.length,
  ];
  pairs.sort((x, y) => {
    const [ox, oy] = [order(x), order(y)];
    return ox.reduce((found, value, i) => found || value - (oy[i] ?? 0), 0);
  });
  const pairedWith = new Array<number>(person.tokens.length).fill(-1);
  const listedPaired = new Array<boolean>(listed.length).fill(false);
  let crossed = 0;
  for (const { similarity, a, b } of pairs) {
    if (a.covers.some((i) => pairedWith[i] !== -1) || b.covers.some((i) => listedPaired[i])) continue;
    for (const i of a.covers) pairedWith[i] = similarity;
    for (const i of b.covers) listedPaired[i] = true;
    const needed = a.covers.some((i) => person.core[i]);
    if (needed && !rolesAgree(person.part[a.covers[0] ?? 0], listedName.part[b.covers[0] ?? 0], listedName)) crossed++;
  }
  const similarityOf = (i: number) => Math.max(0, pairedWith[i] ?? 0);
  const needed = person.tokens.flatMap((_, i) => (person.core[i] ? [similarityOf(i)] : []));
  if (needed.length === 0) return 0;
  const unpairedPerson = person.tokens.filter(
    (token, i) => pairedWith[i] === -1 && !token.particle && !person.core[i],
  ).length;
  const unpairedListed = listed.filter((token, i) => !listedPaired[i] && !token.particle).length;
  const listedNeededUnpaired = listedName.needed.filter((i) => !listedPaired[i]).length;
  const score =
    Math.min(...needed) -
    UNPAIRED_PERSON_WORD * unpairedPerson -
    UNPAIRED_LISTED_WORD * Math.min(unpairedListed, UNPAIRED_LISTED_LIMIT) -
    UNPAIRED_LISTED_NEEDED_WORD * listedNeededUnpaired -
    CROSSED_ROLE * crossed;
  return Math.max(0, Math.min(1, score));
}

/** The score of a person's name against one listed name, 0–1. */
export const scoreName = (person: PersonName, listedName: string): number =>
  scoreWords(personWords(person), listedWords(listedName));
