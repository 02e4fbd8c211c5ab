// How a name is cut into the words screening compares (docs/api.md#screening): folded to
// plain lower-case Latin letters, split at spaces, hyphens and punctuation, with particles
// (`al-`, `bin`, `de la`, `van`, …) marked so that they are compared when present and never
// needed. Apart from name-folding.ts, whose single folded key identifies a person by an
// exact name, this keeps the words and their roles for a scored comparison.

/** Letters that Unicode's decomposition leaves whole, as they are romanised. */
const LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
};

/**
 * Words that join a name rather than name anyone: Arabic articles and "son of", Romance
 * and Germanic particles, titles. A particle is compared when both sides have it (and joins the
 * next word when written together: "Altikriti" is "Al Tikriti") but is never required.
 * `abu` ("father of") is not among them: it often is the name itself.
 */
export const PARTICLES: ReadonlySet<string> = new Set([
  'al',
  'el',
  'ul',
  'ad',
  'ar',
  'as',
  'ash',
  'at',
  'az',
  'bin',
  'ibn',
  'bint',
  'ben',
  'ould',
  'de',
  'del',
  'della',
  'der',
  'des',
  'di',
  'da',
  'dos',
  'das',
  'do',
  'du',
  'la',
  'le',
  'los',
  'las',
  'van',
  'von',
  'den',
  'ten',
  'y',
  'e',
  // Titles and honorifics the lists write into names ("Dr. Khadim", "Haji Ahmad").
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'sheikh',
  'shaykh',
  'haji',
  'hajji',
  'mullah',
  'maulana',
  'sayyid',
]);

/** One word of a name, folded. */
export interface NameToken {
  readonly text: string;
  readonly particle: boolean;
}

/** A name's text folded: decomposed, marks dropped, special letters spelt out, lower case. */
export function foldText(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþıħŧ]/g, (letter) => LETTERS[letter] ?? letter);
}

/**
 * The words of a name: split at anything that is not a letter or a digit (apostrophes
 * inside a word join it: "O'Brien" is "obrien"), each marked when it is a particle.
 */
export function nameTokens(name: string): NameToken[] {
  return foldText(name)
    .replace(/['’`ʼ]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((text) => ({ text, particle: PARTICLES.has(text) }));
}

/**
 * A word's spelling reduced to what romanisations of one name share: `ph`/`f`, an `h`
 * after a consonant or ending a word (`kh`, `sh`, `th`, "Abdullah"), `q`/`k`/hard `c`,
 * `w`/`v`, `x`/`ks`, `j`/`y` before a vowel, doubled letters, and vowels in three classes
 * (a; e i y; o u), a run of one class as one, so "Mouhamad" meets "Muhammad", "Yusuf"
 * "Jusuf", "Aleksandr" "Alexandr", "Kadhafi" "Qadhafi". Only equal skeletons count
 * (`wordSimilarity`).
 */
export function skeleton(word: string): string {
  return word
    .replace(/sch/g, 'sh')
    .replace(/dzh|dj/g, 'j')
    .replace(/ph/g, 'f')
    .replace(/([^aeiouy])h/g, '$1')
    .replace(/(?<=[aeiouy])h$/, '')
    .replace(/q/g, 'k')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/c/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/w/g, 'v')
    .replace(/z/g, 's')
    .replace(/[jy](?=[aeiou])/g, 'Y')
    .replace(/[eiy]/g, 'i')
    .replace(/[ou]/g, 'u')
    .replace(/Y/g, 'y')
    .replace(/(.)\1+/g, '$1');
}
