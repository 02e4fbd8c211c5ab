/**
 * Names are compared after folding case, diacritics, punctuation and spacing, so that
 * "José  Núñez-Ortiz", "jose nunez ortiz" and "JOSE NUNEZORTIZ" are the same name.
 */
export function foldName(name: string): string {
  return words(name).join('');
}

/**
 * The name's words (split on whitespace), each folded; punctuation inside a word, hyphens
 * included, is dropped, so "Mary-Jane" is one word that matches "Mary Jane" folded.
 */
export function words(name: string): string[] {
  return name
    .split(/\s+/u)
    .map((word) =>
      word
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]/gu, ''),
    )
    .filter((word) => word !== '');
}
