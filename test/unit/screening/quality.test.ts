import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseOfacList } from '#domain/ofac-lists';
import { ScreeningIndex } from '#domain/screening-index';
import { DEFAULT_SCREENING_THRESHOLD, type ListedPerson, matchListing } from '#domain/screening-match';
import {
  commonNames,
  otherGivenNames,
  VARIANT_CLASSES,
  type VariantPerson,
  variants,
} from '#test/support/screening-variants';

// Screening quality on OFAC's real SDN list (docs/testing.md#screening-quality): persons
// built from real listings the ways partners write names, one class per way, must be
// caught (recall ≥ 99 % in every class), and persons who are not listed must not be (common
// US names ≤ 0.5 %, other given names under a listed surname ≤ 5 %). A sample of each class
// runs here; `npm run screening:quality` runs 400 per class and writes the figures the docs show.

const file = (name: string) => ({ name, text: readFileSync(`test/fixtures/ofac/${name}`, 'utf8') });
const US_NAMES = JSON.parse(readFileSync('test/fixtures/names/us-common-names.json', 'utf8')) as {
  given_names: string[];
  surnames: string[];
};
const PER_CLASS = 100;
// Counted work, not time: on a busy machine these take long, never differently.
const SLOW = { timeout: 300_000 };

let listings: ListedPerson[];
let index: ScreeningIndex;
beforeAll(() => {
  listings = parseOfacList({ source: 'SDN', primary: file('sdn.csv'), aliases: file('alt.csv') });
  index = new ScreeningIndex(listings);
});

const caught = (person: VariantPerson) => index.screen(person).some((hit) => hit.entryId === person.entryId);
const share = (persons: readonly VariantPerson[], test: (person: VariantPerson) => boolean) =>
  persons.filter(test).length / persons.length;
const withoutDate = (person: VariantPerson): VariantPerson => ({ ...person, date_of_birth: undefined });

describe('recall on OFAC’s SDN list, by how the partner wrote the listed name', () => {
  it.each(VARIANT_CLASSES)('%s: ≥ 99 % caught, with the listed date of birth and without one', SLOW, (kind) => {
    const built = variants(kind, listings, PER_CLASS);
    expect(built.length).toBe(PER_CLASS);
    expect(share(built, caught)).toBeGreaterThanOrEqual(0.99);
    expect(share(built.map(withoutDate), caught)).toBeGreaterThanOrEqual(0.99);
  });

  it(
    'a listing that names an already verified person in a variant form: the same matcher, the same recall',
    SLOW,
    () => {
      // A list change scores each verified person against the changed listing alone (matchListing).
      const built = VARIANT_CLASSES.flatMap((kind) => variants(kind, listings, 30, 31));
      const byId = new Map(listings.map((listing) => [listing.entryId, listing]));
      const restricted = (person: VariantPerson) =>
        matchListing(person, byId.get(person.entryId as string) as ListedPerson).score >= DEFAULT_SCREENING_THRESHOLD;
      expect(share(built, restricted)).toBeGreaterThanOrEqual(0.99);
    },
  );
});

describe('false positives', () => {
  it('common US names (census surnames, SSA given names) with a date of birth: ≤ 0.5 % flagged', SLOW, () => {
    const persons = commonNames(US_NAMES, 600, true);
    expect(share(persons, (person) => index.screen(person).length > 0)).toBeLessThanOrEqual(0.005);
  });

  it(
    'another given name under a listed surname: ≤ 5 % taken for the listing, with a date of birth or without',
    SLOW,
    () => {
      const persons = otherGivenNames(listings, US_NAMES.given_names, 600, true);
      expect(share(persons, caught)).toBeLessThanOrEqual(0.05);
      expect(share(persons.map(withoutDate), caught)).toBeLessThanOrEqual(0.05);
    },
  );
});

describe('the index loses nothing the matcher would find', () => {
  it('every listing a person scores at or above the threshold against, the index returns', SLOW, () => {
    const persons = [
      ...VARIANT_CLASSES.flatMap((kind) => variants(kind, listings, 2, 32)),
      ...commonNames(US_NAMES, 10, false),
    ];
    for (const person of persons) {
      const everyListing = listings
        .filter((listing) => matchListing(person, listing).score >= DEFAULT_SCREENING_THRESHOLD)
        .map((listing) => listing.entryId)
        .sort();
      expect(
        index
          .screen(person)
          .map((hit) => hit.entryId)
          .sort(),
      ).toEqual(everyListing);
    }
  });
});
