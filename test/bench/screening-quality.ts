import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOfacList } from '#domain/ofac-lists';
import { ScreeningIndex } from '#domain/screening-index';
import { DEFAULT_SCREENING_THRESHOLD } from '#domain/screening-match';
import { commandLine, usageError } from '#lib/command-line';
import { REPO_ROOT } from '#lib/repo-root';
import * as quality from '#test/support/screening-variants';
import { QUALITY_DOC, QUALITY_JSON, type QualityFigures, withQualityFigures } from './screening-quality-figures';

// `npm run screening:quality [-- --per-class 400]`: the screening quality set at full size
// (docs/testing.md#screening-quality): every variant class at 400 persons on OFAC's real
// SDN list, with the listed date of birth and without one, and the two negative sets;
// writes docs/bench/screening-quality.json and the figures block of docs/testing.md from
// it. Counts, not times: the same figures on any machine. About four minutes on two busy cores.

const USAGE = `usage: npm run screening:quality [-- --per-class <n>]
  --per-class <n>  persons per variant class (400 by default, the published size)
Writes docs/bench/screening-quality.json and the figures block of docs/testing.md.`;
const values = commandLine(USAGE, { 'per-class': { type: 'string', default: '400' } });
const perClass = Number(values['per-class']);
if (!Number.isInteger(perClass) || perClass < 1) usageError(USAGE, '--per-class needs a whole number of persons');
const file = (name: string) => ({ name, text: readFileSync(join(REPO_ROOT, 'test/fixtures/ofac', name), 'utf8') });
const names = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/names/us-common-names.json'), 'utf8'));
const listings = parseOfacList({ source: 'SDN', primary: file('sdn.csv'), aliases: file('alt.csv') });
const index = new ScreeningIndex(listings);
const percent = (persons: readonly quality.VariantPerson[], test: (person: quality.VariantPerson) => boolean) =>
  Math.round((10_000 * persons.filter(test).length) / persons.length) / 100;
const caught = (person: quality.VariantPerson) => index.screen(person).some((hit) => hit.entryId === person.entryId);
const flagged = (person: quality.VariantPerson) => index.screen(person).length > 0;
const withoutDate = (person: quality.VariantPerson): quality.VariantPerson => ({ ...person, date_of_birth: undefined });

const recall = Object.fromEntries(
  quality.VARIANT_CLASSES.map((kind) => {
    const built = quality.variants(kind, listings, perClass);
    process.stderr.write(`${kind}: ${built.length} persons\n`);
    return [
      kind,
      {
        persons: built.length,
        with_date: percent(built, caught),
        without_date: percent(built.map(withoutDate), caught),
      },
    ];
  }),
);
const NEGATIVES = 600;
const others = quality.otherGivenNames(listings, names.given_names, NEGATIVES, true);
const figures: QualityFigures = {
  at: new Date().toISOString().slice(0, 10),
  listings: listings.length,
  threshold: DEFAULT_SCREENING_THRESHOLD,
  per_class: perClass,
  recall_percent: recall,
  common_us_names_flagged_percent: {
    persons: NEGATIVES,
    with_date: percent(quality.commonNames(names, NEGATIVES, true), flagged),
    without_date: percent(quality.commonNames(names, NEGATIVES, false), flagged),
  },
  other_given_names_taken_percent: {
    persons: NEGATIVES,
    with_date: percent(others, caught),
    without_date: percent(others.map(withoutDate), caught),
  },
};
writeFileSync(join(REPO_ROOT, QUALITY_JSON), `${JSON.stringify(figures, null, 2)}\n`);
const doc = join(REPO_ROOT, QUALITY_DOC);
writeFileSync(doc, withQualityFigures(readFileSync(doc, 'utf8'), figures));
console.log(`written ${QUALITY_JSON} and the figures of ${QUALITY_DOC}#screening-quality`);
