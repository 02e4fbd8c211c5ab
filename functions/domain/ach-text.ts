// Nacha's alphameric fields (the receiver's and the originator's names, the entry
// description) take printable ASCII only, 0x20–0x7E, in fixed widths. A name written in
// another script or with accents is transliterated first, then cut, so that a width counts
// characters the receiving bank will print (docs/api.md#what-a-holder-sees).

/** Letters NFKD does not decompose into ASCII, written as ASCII spells them. */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŋ: 'ng',
  Ŋ: 'NG',
  ĸ: 'q',
  ſ: 's',
  '‘': "'",
  '’': "'",
  '‚': "'",
  ʼ: "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '−': '-',
};

const SPELLABLE = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'gu');

/**
 * `value` in printable ASCII, at most `width` characters: accents folded (NFKD, marks
 * dropped), the letters above spelled out, anything else outside ASCII dropped, spacing
 * collapsed; cut at the width and trimmed. May be empty (a name in another script only).
 */
export function achText(value: string, width: number): string {
  const ascii = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(SPELLABLE, (letter) => SPELLED[letter] ?? '')
    .replace(/\s+/gu, ' ')
    .replace(/[^\x20-\x7E]/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return ascii.slice(0, width).trimEnd();
}
