import { jaroWinkler } from '#domain/name-similarity';
import { PARTICLES } from '#domain/name-tokens';
import type { ListedPerson } from '#domain/screening-match';
import { aliasSubstitutions } from '#domain/spelling-mining';
import { mulberry32 } from '#lib/local/faults/mulberry32';

// The screening quality set (docs/testing.md#screening-quality): persons built from OFAC's
// real listings the ways partners write names, one class per way, and two sets of persons
// who are not listed. Deterministic: one seed, the same set every run.

/** A person as a partner would send it, and the listing it was built from (none for a negative). */
export interface VariantPerson {
  readonly first_name: string;
  readonly middle_name?: string;
  readonly last_name: string;
  readonly date_of_birth?: string;
  readonly entryId?: string;
}

/** The ways a partner may write a listed name, one class of the quality set each. */
export const VARIANT_CLASSES = [
  'exact',
  'no_middle_name',
  'surname_slip',
  'alias',
  'romanisation',
  'spacing',
  'first_surname',
  'spelling',
] as const;
export type VariantClass = (typeof VARIANT_CLASSES)[number];

/** A small seeded generator (mulberry32): the same numbers for the same seed, on every machine. */
export const seeded = mulberry32;

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
const titled = (words: readonly string[]) => words.map(title).join(' ');

/** "LAST NAMES, Given Names" as surname words and given words; undefined without a comma or a part. */
function split(name: string): { surname: string[]; given: string[] } | undefined {
  const comma = name.indexOf(',');
  if (comma === -1) return undefined;
  const surname = name.slice(0, comma).trim().split(/\s+/).filter(Boolean);
  const given = name
    .slice(comma + 1)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return surname.length > 0 && given.length > 0 ? { surname, given } : undefined;
}

/** A date of birth the listing gives (a day, or a day of a listed year), or none when it gives none. */
function listedBirthday(random: Random, listing: ListedPerson): string | undefined {
  const date = listing.datesOfBirth[0];
  if (!date) return undefined;
  if (date.day) return date.day;
  const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
  const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
  return `${date.year}-${month}-${day}`;
}

const person = (random: Random, listing: ListedPerson, given: string[], surname: string[]): VariantPerson => {
  const [first = '', ...middle] = given;
  const dateOfBirth = listedBirthday(random, listing);
  return {
    first_name: title(first),
    ...(middle.length > 0 && { middle_name: titled(middle) }),
    last_name: titled(surname),
    ...(dateOfBirth && { date_of_birth: dateOfBirth }),
    entryId: listing.entryId,
  };
};

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One slip in a word: a letter changed, dropped, doubled in or swapped with the next, never the first letter. */
export function slip(random: Random, word: string): string {
  const at = 1 + Math.floor(random() * (word.length - 1));
  const kind = Math.floor(random() * 4);
  if (kind === 0) return `${word.slice(0, at)}${pick(random, [...LETTERS])}${word.slice(at + 1)}`;
  if (kind === 1) return `${word.slice(0, at)}${word.slice(at + 1)}`;
  if (kind === 2) return `${word.slice(0, at)}${pick(random, [...LETTERS])}${word.slice(at)}`;
  if (at + 1 >= word.length) return `${word.slice(0, at)}${pick(random, [...LETTERS])}`;
  return `${word.slice(0, at)}${word[at + 1]}${word[at]}${word.slice(at + 2)}`;
}

/**
 * Spellings one romanisation uses for another's, as transliteration tables of Arabic,
 * Russian and Ukrainian names differ (Library of Congress, BGN/PCGN, French and German
 * conventions): each applies where its left side occurs in the word.
 */
export const ROMANISATIONS: readonly (readonly [RegExp, string])[] = [
  [/^muhammad$/i, 'Mohammad'],
  [/^mohammad$/i, 'Muhammad'],
  [/^mohammed$/i, 'Muhammad'],
  [/^muhammad$/i, 'Mohamed'],
  [/ou/i, 'u'],
  [/u/i, 'ou'],
  [/^y/i, 'J'],
  [/^j/i, 'Y'],
  [/kh/i, 'h'],
  [/q/i, 'k'],
  [/k(?=[aou])/i, 'q'],
  [/sh/i, 'sch'],
  [/ee/i, 'i'],
  [/i(?=[aeou])/i, 'y'],
  [/y(?=[aeou])/i, 'i'],
  [/x/i, 'ks'],
  [/ks/i, 'x'],
  [/ph/i, 'f'],
  [/v$/i, 'ff'],
  [/ah$/i, 'a'],
  [/a$/i, 'ah'],
  [/dh/i, 'd'],
  [/ei/i, 'ey'],
  [/ai/i, 'ay'],
  [/([bdfgklmnprst])\1/i, '$1'],
  [/(?<=[aeiou])([bdfgklmnprst])(?=[aeiou])/i, '$1$1'],
];

function romanise(random: Random, words: string[]): string[] | undefined {
  const options = words.flatMap((word, i) =>
    ROMANISATIONS.filter(([from]) => from.test(word)).map(([from, to]) => ({ i, from, to })),
  );
  if (options.length === 0) return undefined;
  const { i, from, to } = pick(random, options);
  return words.map((word, j) => (j === i ? word.replace(from, to) : word));
}

/** Joined, hyphenated or spaced otherwise: "AL-TIKRITI" as "Al Tikriti" or "Altikriti"; "ABU TEIR" as "Abu-Teir" or "Abuteir". */
function respace(random: Random, surname: string[]): string[] | undefined {
  const hyphenated = surname.findIndex((word) => word.includes('-'));
  if (hyphenated !== -1) {
    const parts = (surname[hyphenated] ?? '').split('-');
    const replacement = random() < 0.5 ? parts : [parts.join('')];
    return [...surname.slice(0, hyphenated), ...replacement, ...surname.slice(hyphenated + 1)];
  }
  if (surname.length < 2) return undefined;
  const joinWith = random() < 0.5 ? '-' : '';
  return [surname.slice(0, 2).join(joinWith), ...surname.slice(2)];
}

const PARTICLE = /^(al|el|de|del|da|di|la|le|van|von|bin|ibn|y)$/i;
const TITLE = /^(dr\.?|mr\.?|haji|hajji|sheikh|shaykh|mullah|sayyid|maulana)$/i;

/** Spellings of one name that letters alone held apart (issue 44): each must find the other's listing. */
export const OTHER_SPELLINGS: readonly (readonly [string, string])[] = [
  ['mohamed', 'muhammad'],
  ['yusuf', 'youssef'],
  ['said', 'sayed'],
  ['uthman', 'osman'],
  ['sulayman', 'soliman'],
  ['yahya', 'yehia'],
  ['husayn', 'hussein'],
];

/** How many of the list's most frequent given names and surname particles the `spelling` class writes otherwise. */
export const FREQUENT_WORDS = 50;

/** Words that begin surnames as particles do ("ABU TEIR", "'ABD AL-SAMAD"), besides the particles proper. */
const SURNAME_PARTICLES = new Set([...PARTICLES, 'abu', 'abd']);

const plainWord = (word: string) =>
  word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/**
 * The list's `FREQUENT_WORDS` most frequent given names and surname particles (counted over
 * every name of every listing written "SURNAME, Given"), each with every spelling the list's
 * own aliases write for it: a word an alias puts in its place in two listings or more, for
 * which it is the word most often replaced, starting with its letter (or, both, with a
 * vowel), more than half as long and at least 0.7 alike by Jaro-Winkler (an alias "Abu
 * Bakr" of an "Abu", "Aziz" of an "Ibrahim" is another name, not a spelling). Read from the aliases here, not from the matcher's table (listed-spellings.json),
 * so a spelling the matcher does not know is a miss.
 */
export function frequentWordSpellings(listings: readonly ListedPerson[]): { word: string; spellings: string[] }[] {
  const frequency = new Map<string, number>();
  for (const listing of listings) {
    for (const name of listing.names) {
      const parts = split(name.name);
      if (!parts) continue;
      const words = [
        ...parts.given.flatMap((word) => word.split('-')),
        ...parts.surname.flatMap((word) => word.split('-')).filter((word) => SURNAME_PARTICLES.has(plainWord(word))),
      ]
        .map(plainWord)
        .filter((word) => word.length > 1);
      for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    }
  }
  const substitutions = aliasSubstitutions(listings);
  const mostReplaced = (word: string) => Math.max(...(substitutions.get(word)?.values() ?? [0]));
  const spelt = (a: string, b: string) =>
    (a[0] === b[0] || (/^[aeiou]/.test(a) && /^[aeiou]/.test(b))) &&
    Math.min(a.length, b.length) * 2 > Math.max(a.length, b.length) &&
    jaroWinkler(a, b) >= 0.7;
  return [...frequency]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FREQUENT_WORDS)
    .map(([word]) => ({
      word,
      spellings: [...(substitutions.get(word) ?? [])]
        .filter(([other, listed]) => listed >= 2 && listed === mostReplaced(other) && spelt(word, other))
        .map(([other]) => other)
        .sort(),
    }));
}

/** Each (word, spelling) pair of `frequentWordSpellings` in turn, round and round, for the `spelling` class. */
const spellingTurns = new WeakMap<readonly ListedPerson[], { word: string; spelling: string }[]>();

function turnsOf(listings: readonly ListedPerson[]): { word: string; spelling: string }[] {
  let turns = spellingTurns.get(listings);
  if (!turns) {
    turns = frequentWordSpellings(listings).flatMap(({ word, spellings }) =>
      spellings.map((spelling) => ({ word, spelling })),
    );
    spellingTurns.set(listings, turns);
  }
  return turns;
}

/** The listed name's words with `word` (alone or in a hyphenated word) written `spelling`, when it has it. */
function respelt(words: readonly string[], word: string, spelling: string): string[] | undefined {
  let found = false;
  const written = words.map((listed) =>
    listed
      .split('-')
      .map((piece) => {
        if (found || plainWord(piece) !== word) return piece;
        found = true;
        return title(spelling);
      })
      .join('-'),
  );
  return found ? written : undefined;
}

/** The variant of one class built from one listing, when the listing allows it. */
export function variantOf(kind: VariantClass, random: Random, listing: ListedPerson): VariantPerson | undefined {
  const parts = split(listing.name);
  if (kind === 'alias') {
    const aliases = listing.names.filter((name) => name.kind !== 'primary').flatMap((name) => split(name.name) ?? []);
    if (aliases.length === 0) return undefined;
    const alias = pick(random, aliases);
    return person(random, listing, alias.given, alias.surname);
  }
  if (!parts) return undefined;
  if (kind === 'spelling') return undefined;
  const { surname } = parts;
  const given = parts.given.filter((word) => !TITLE.test(word));
  if (given.length === 0) return undefined;
  switch (kind) {
    case 'exact':
      return person(random, listing, given, surname);
    case 'no_middle_name':
      return given.length > 1 ? person(random, listing, given.slice(0, 1), surname) : undefined;
    case 'surname_slip': {
      // The surname proper: the first word of 4 letters or more that is no particle, in a
      // hyphenated word ("AL-MANSUR") the part after the particle.
      const parts = surname.map((word) => word.split('-'));
      const at = parts.findIndex((pieces) => pieces.some((piece) => !PARTICLE.test(piece) && piece.length >= 4));
      if (at === -1) return undefined;
      const pieces = parts[at] ?? [];
      const piece = pieces.findIndex((candidate) => !PARTICLE.test(candidate) && candidate.length >= 4);
      const slipped = pieces.map((candidate, i) => (i === piece ? slip(random, candidate.toLowerCase()) : candidate));
      return person(
        random,
        listing,
        given,
        surname.map((word, i) => (i === at ? slipped.join('-') : word)),
      );
    }
    case 'romanisation': {
      const which = random() < 0.5 ? 'given' : 'surname';
      const changed = romanise(random, which === 'given' ? given : surname);
      if (!changed) return undefined;
      return which === 'given' ? person(random, listing, changed, surname) : person(random, listing, given, changed);
    }
    case 'spacing': {
      const changed = respace(random, surname);
      return changed ? person(random, listing, given, changed) : undefined;
    }
    case 'first_surname': {
      const words = surname.filter((word) => !PARTICLE.test(word));
      return words.length > 1 ? person(random, listing, given, words.slice(0, 1)) : undefined;
    }
  }
}

/** Up to `count` variants of one class, from listings taken in a seeded order. */
export function variants(
  kind: VariantClass,
  listings: readonly ListedPerson[],
  count: number,
  seed = 28,
): VariantPerson[] {
  const random = seeded(seed);
  const order = listings.map((listing) => ({ listing, at: random() })).sort((a, b) => a.at - b.at);
  if (kind === 'spelling')
    return spellingVariants(
      random,
      order.map(({ listing }) => listing),
      listings,
      count,
    );
  const built: VariantPerson[] = [];
  for (const { listing } of order) {
    if (built.length >= count) break;
    const variant = variantOf(kind, random, listing);
    if (variant) built.push(variant);
  }
  return built;
}

/**
 * The `spelling` class: each frequent word in each of its spellings in turn, in the next
 * listing (in the seeded order) whose listed name has the word among its given names or
 * as a surname particle, written with that spelling; every spelling of every word appears
 * once before any appears twice.
 */
function spellingVariants(
  random: Random,
  order: readonly ListedPerson[],
  listings: readonly ListedPerson[],
  count: number,
): VariantPerson[] {
  const turns = turnsOf(listings);
  const used = new Set<string>();
  const built: VariantPerson[] = [];
  for (let turn = 0; built.length < count && turn < count * 4; turn++) {
    const { word, spelling } = turns[turn % turns.length] as { word: string; spelling: string };
    for (const listing of order) {
      const parts = used.has(listing.entryId) ? undefined : split(listing.name);
      if (!parts) continue;
      const given = parts.given.filter((listed) => !TITLE.test(listed));
      const surname = respelt(parts.surname, word, spelling);
      const particle = surname && SURNAME_PARTICLES.has(word) ? surname : undefined;
      const respeltGiven = particle ? undefined : respelt(given, word, spelling);
      if (!particle && !respeltGiven) continue;
      used.add(listing.entryId);
      built.push(person(random, listing, respeltGiven ?? given, particle ?? parts.surname));
      break;
    }
  }
  return built;
}

/** A date of birth between 1940 and 2005, as a partner sends one. */
function anyBirthday(random: Random): string {
  const year = 1940 + Math.floor(random() * 66);
  const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
  const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/** Persons who are not listed: common US given names and surnames paired at random, with a date of birth or without. */
export function commonNames(
  names: { given_names: readonly string[]; surnames: readonly string[] },
  count: number,
  withDateOfBirth: boolean,
  seed = 29,
): VariantPerson[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => ({
    first_name: pick(random, names.given_names),
    last_name: pick(random, names.surnames),
    ...(withDateOfBirth && { date_of_birth: anyBirthday(random) }),
  }));
}

/** Plain Levenshtein distance, for telling another given name from a spelling of the same one. */
function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(
        Math.min(
          (previous[j] ?? 0) + 1,
          (row[j - 1] ?? 0) + 1,
          (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
        ),
      );
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

const plain = (word: string) => word.toLowerCase().replace(/[^a-z]/g, '');

/**
 * Persons with a listed surname and another given name: given names taken from other
 * listings (the names of the same cultures) and common US ones, never one within two
 * letters of any of the listing's given names or sharing their first three letters (so a
 * spelling of the same name is not counted as another name).
 */
export function otherGivenNames(
  listings: readonly ListedPerson[],
  usGivenNames: readonly string[],
  count: number,
  withDateOfBirth: boolean,
  seed = 30,
): VariantPerson[] {
  const random = seeded(seed);
  const pool = [
    ...usGivenNames,
    ...listings
      .flatMap(
        (listing) =>
          split(listing.name)
            ?.given.filter((word) => !TITLE.test(word))
            .slice(0, 1) ?? [],
      )
      .filter((word) => plain(word).length > 2),
  ];
  const built: VariantPerson[] = [];
  while (built.length < count) {
    const listing = pick(random, listings);
    const parts = split(listing.name);
    if (!parts) continue;
    const listedGiven = listing.names.flatMap((name) => (split(name.name)?.given ?? []).map(plain)).filter(Boolean);
    const given = plain(pick(random, pool));
    const same = listedGiven.some((word) => levenshtein(word, given) <= 2 || word.slice(0, 3) === given.slice(0, 3));
    if (same || given.length < 2) continue;
    built.push({
      first_name: title(given),
      last_name: titled(parts.surname),
      ...(withDateOfBirth && { date_of_birth: anyBirthday(random) }),
      entryId: listing.entryId,
    });
  }
  return built;
}
