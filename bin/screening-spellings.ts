import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { listedSpellingsFile } from '#domain/spelling-mining';
import { parseListFiles, readListFiles } from '#functions/screening/load-lists';
import { REPO_ROOT } from '#lib/repo-root';

// `npm run screening:spellings [-- --dir <folder>]`: mines OFAC's files (by default the
// snapshot in test/fixtures/ofac) for the spellings the list's aliases use for one name
// and writes them to functions/domain/listed-spellings.json, which screening reads
// (docs/decisions.md#every-spelling-of-a-name-issue-44). Run it when the snapshot is
// replaced; test/unit/domain/screening/listed-spellings.test.ts fails until it is.

const LISTED_SPELLINGS_JSON = 'functions/domain/listed-spellings.json';

const { values } = parseArgs({ options: { dir: { type: 'string', default: 'test/fixtures/ofac' } } });
const listings = parseListFiles(await readListFiles(values.dir)).filter((listing) => listing.list === 'sanctions');
const text = listedSpellingsFile(listings);
writeFileSync(join(REPO_ROOT, LISTED_SPELLINGS_JSON), text);
const { groups } = JSON.parse(text) as { groups: string[] };
console.log(`${listings.length} listed persons → ${groups.length} groups of spellings in ${LISTED_SPELLINGS_JSON}`);
