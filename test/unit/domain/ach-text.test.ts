import { describe, expect, it } from 'vitest';
import { achText } from '#domain/ach-text';

/**
 * Nacha's alphameric fields take printable ASCII (0x20–0x7E): a name is transliterated
 * (accents folded, letters written in ASCII), what cannot be written is dropped, and only
 * then is it cut to the field's width, at a character, never inside one.
 */
describe('achText', () => {
  it.each([
    ['José Núñez', 'Jose Nunez'],
    ['Zoë Ångström', 'Zoe Angstrom'],
    ['Łukasz Żółć', 'Lukasz Zolc'],
    ['Søren Ærø', 'Soren AEro'],
    ['Straße', 'Strasse'],
    ['Þórr Ðorðević', 'THorr Dordevic'],
    ['O’Brien & Co.', "O'Brien & Co."],
    ['Jean–Luc “JL”', 'Jean-Luc "JL"'],
    ['ﬁne Ｆｕｌｌｗｉｄｔｈ', 'fine Fullwidth'],
  ])('writes %s in ASCII as %s', (name, ascii) => {
    expect(achText(name, 40)).toBe(ascii);
  });

  it('drops what has no ASCII form, and the spacing it leaves', () => {
    expect(achText('Anna 🙂 Lee', 40)).toBe('Anna Lee');
    expect(achText('李小龍 Bruce Lee', 40)).toBe('Bruce Lee');
    expect(achText('  tab\tand\nnewline  ', 40)).toBe('tab and newline');
    expect(achText('李小龍', 40)).toBe('');
  });

  it('cuts to the width after transliterating, so every kept character counts once', () => {
    expect(achText('Maximiliana Alexandrova-Konstantinopoulou', 22)).toBe('Maximiliana Alexandrov');
    // "Ü" is two UTF-16 units once decomposed; cut by units it would take two of the 22.
    expect(achText('Ünal Çelikkanat-Öztürkoğlu', 22)).toBe('Unal Celikkanat-Ozturk');
    expect(achText('Ünal Çelikkanat-Öztürkoğlu', 22)).toHaveLength(22);
  });

  it('never ends on a space it cut to', () => {
    expect(achText('Jane Doe Smithsonian', 9)).toBe('Jane Doe');
  });

  it('answers only printable ASCII, whatever it is given', () => {
    const every = Array.from({ length: 0x2fff }, (_, i) => String.fromCodePoint(i)).join('');
    expect(achText(every, 100_000)).toMatch(/^[\x20-\x7E]*$/);
  });
});
