import { describe, expect, it } from 'vitest';
import { scoreName } from '#domain/name-score';
import { DEFAULT_SCREENING_THRESHOLD, type ListedPerson, matchListing } from '#domain/screening-match';

const T = DEFAULT_SCREENING_THRESHOLD / 100;
const score = (first: string, last: string, listed: string, middle?: string) =>
  scoreName({ first_name: first, last_name: last, ...(middle && { middle_name: middle }) }, listed);

describe('a person against a listed name: what it tolerates (at or above the threshold)', () => {
  it.each([
    ['the name as listed', 'Olena', 'Semenova', 'SEMENOVA, Olena Yurevna', 'Yurevna'],
    ['no middle name where the list has one', 'Olena', 'Semenova', 'SEMENOVA, Olena Yurevna', undefined],
    ['a middle name the list lacks', 'Ilir', 'Kelmendi', 'KELMENDI, Ilir', 'Petrit'],
    ['one slip in the surname', 'Ilir', 'Kelmndi', 'KELMENDI, Ilir', undefined],
    ['two slips in a long surname', 'Olena', 'Semnoova', 'SEMENOVA, Olena', undefined],
    ['another romanisation', 'Mohammad', 'Suri', 'SURI, Muhammad', undefined],
    ['diacritics', 'José', 'Núñez', 'NUNEZ, Jose', undefined],
    ['surname first, given name last (order swapped)', 'Semenova', 'Olena', 'SEMENOVA, Olena', undefined],
    ['a particle spaced', 'Saddam', 'Al Tikriti', 'AL-TIKRITI, Saddam Hussein', undefined],
    ['a particle written together', 'Saddam', 'Altikriti', 'AL-TIKRITI, Saddam Hussein', undefined],
    ['"bin" left out', 'Usama', 'Ladin', 'BIN LADIN, Usama', undefined],
    ['"de la" written together', 'Maria', 'Delacruz', 'DE LA CRUZ, Maria', undefined],
    ['the first of two surnames alone', 'Elvira', 'Araujo', 'ARAUJO MONZON, Elvira', undefined],
    ['three words written as one', 'Muhammad', 'Abdalsamad', "'ABD-AL-SAMAD, Muhammad", undefined],
  ])('%s', (_, first, last, listed, middle) => {
    expect(score(first as string, last as string, listed as string, middle)).toBeGreaterThanOrEqual(T);
  });
});

describe('a person against a listed name: what it does not take for the listed person', () => {
  it.each([
    ['another given name under the listed surname', 'Maria', 'Semenova', 'SEMENOVA, Olena Yurevna'],
    ['another surname under the listed given name', 'Olena', 'Smith', 'SEMENOVA, Olena Yurevna'],
    ['a longer surname of which the listed name is the start', 'Jose', 'Hernandez', 'ZAMORA, Jose Hernan'],
    ['a given name and surname only alike, and swapped', 'Mark', 'Martinez', 'MARKS, Martin Gregory'],
    ['a surname only, the given name missing from the listing', 'John', 'Smith', 'SMITH'],
  ])('%s', (_, first, last, listed) => {
    expect(score(first as string, last as string, listed as string)).toBeLessThan(T);
  });

  it('the given name paired with a listed middle name costs the listed given name’s absence', () => {
    const asFirst = score('Jose', 'Moron', 'MORON HERNANDEZ, Jose Santiago');
    const asMiddle = score('Jose', 'Moron', 'MORON HERNANDEZ, Santiago Jose');
    expect(asFirst - asMiddle).toBeCloseTo(0.1, 5);
  });
});

describe('the list’s commonest given names in their other spellings (issue 44)', () => {
  const listing = (entryId: string, name: string, day: string): ListedPerson => ({
    list: 'sanctions',
    source: 'SDN',
    entryId,
    name,
    names: [{ name, kind: 'primary' }],
    datesOfBirth: [{ year: Number(day.slice(0, 4)), toYear: Number(day.slice(0, 4)), day }],
  });

  it.each([
    [{ first_name: 'Mohamed', last_name: 'Al-Qatirji' }, 'AL-QATIRJI, Muhammad', '1976-11-10'],
    [{ first_name: 'Mohamed', middle_name: 'Nasser', last_name: 'Sabbagh' }, 'SABBAGH, Muhammad Nasir', '1954-11-26'],
    [{ first_name: 'Sayed', last_name: 'Arif' }, 'ARIF, Said', '1965-12-05'],
  ])('%o is a hit on %s, with the listed date of birth and without one', (person, name, day) => {
    const listed = listing('SDN-1', name, day);
    expect(matchListing({ ...person, date_of_birth: day }, listed).score).toBeGreaterThanOrEqual(
      DEFAULT_SCREENING_THRESHOLD,
    );
    expect(matchListing(person, listed).score).toBeGreaterThanOrEqual(DEFAULT_SCREENING_THRESHOLD);
  });

  it('another given name under the surname is still no hit: Mahmoud for Muhammad', () => {
    const listed = listing('SDN-1', 'AL-QATIRJI, Muhammad', '1976-11-10');
    expect(matchListing({ first_name: 'Mahmoud', last_name: 'Al-Qatirji' }, listed).score).toBeLessThan(
      DEFAULT_SCREENING_THRESHOLD,
    );
  });
});
