import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOfacList } from '#domain/ofac-lists';
import { ScreeningIndex } from '#domain/screening-index';
import { REPO_ROOT } from '#lib/repo-root';
import { commonNames, VARIANT_CLASSES, variants } from '#test/support/screening-variants';
import type { BenchContext } from './context';
import { measureWalk, WALK_PERSONS, type WalkFigures } from './screening-walk';
import { median, percentile, round } from './stats';

// `npm run bench -- --only screening`: the matcher at full list size (OFAC's SDN and
// Consolidated lists from test/fixtures/ofac, as published), in process. Reported:
// building the in-memory index (a cold identification worker's work after it read the
// listings), one screening (median, p99), and the reads around them; then a list change
// and the daily re-screen through DynamoDB Local (./screening-walk.ts) (docs/decisions.md#screening).

export interface ScreeningFigures {
  readonly listings: number;
  readonly names: number;
  /** Parsing the files and building the index, ms (median of 3). */
  readonly build_ms: number;
  /** One person screened against the whole list, ms. */
  readonly screen_median_ms: number;
  readonly screen_p99_ms: number;
  /** Read units a warm screening costs: one consistent GetItem of the lists' version. */
  readonly screen_rru: number;
  /** Read units a cold worker spends reading the listings (index pages, BatchGets at ½ unit per 4 KB). */
  readonly build_rru: number;
  /** A list change and the daily re-screen walking verified persons on DynamoDB Local. */
  readonly walk: WalkFigures;
}

export async function measureScreening(context: BenchContext): Promise<ScreeningFigures> {
  const file = (name: string) => ({ name, text: readFileSync(join(REPO_ROOT, 'test/fixtures/ofac', name), 'utf8') });
  const names = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/names/us-common-names.json'), 'utf8'));
  const builds: number[] = [];
  let index: ScreeningIndex | undefined;
  let listings: ReturnType<typeof parseOfacList> = [];
  for (let n = 0; n < 3; n++) {
    const started = performance.now();
    listings = [
      ...parseOfacList({
        source: 'SDN',
        primary: file('sdn.csv'),
        aliases: file('alt.csv'),
        addresses: file('add.csv'),
      }),
      ...parseOfacList({ source: 'CONS', primary: file('cons_prim.csv'), aliases: file('cons_alt.csv') }),
    ];
    index = new ScreeningIndex(listings);
    builds.push(performance.now() - started);
  }
  context.log(`${listings.length} listings indexed`);
  const persons = [
    ...VARIANT_CLASSES.flatMap((kind) => variants(kind, listings, 150)),
    ...commonNames(names, 1000, true),
  ];
  for (const person of persons.slice(0, 200)) index?.screen(person);
  const times = persons.map((person) => {
    const started = performance.now();
    index?.screen(person);
    return performance.now() - started;
  });
  // A listing item holds its names and dates as JSON: ½ read unit per 4 KB in a BatchGet.
  const itemBytes = listings.map((listing) => JSON.stringify(listing).length + 200);
  const batchRru = itemBytes.reduce((sum, bytes) => sum + Math.ceil(bytes / 4096) * 0.5, 0);
  const keyPages = Math.ceil((listings.length * 120) / (1024 * 1024));
  return {
    listings: listings.length,
    names: listings.reduce((sum, listing) => sum + listing.names.length, 0),
    build_ms: round(median(builds)),
    screen_median_ms: round(median(times), 2),
    screen_p99_ms: round(percentile(times, 99), 2),
    screen_rru: 1,
    build_rru: round(batchRru + keyPages * 128, 0),
    walk: await measureWalk(context, listings, index as ScreeningIndex, commonNames(names, WALK_PERSONS, true)),
  };
}
