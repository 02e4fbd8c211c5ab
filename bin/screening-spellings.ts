import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '#lib/command-line';
import { REPO_ROOT } from '#lib/repo-root';

// `npm run screening:spellings [-- --dir <folder>]`: mines OFAC's files (by default the
// snapshot in test/fixtures/ofac) for the spellings the list's aliases use for one name
// and writes them to functions/domain/listed-spellings.json, which screening reads
// (docs/decisions.md#every-spelling-of-a-name-issue-44). Run it when the snapshot is
// replaced; test/unit/domain/screening/listed-spellings.test.ts fails until it is.

const USAGE = `usage: npm run screening:spellings [-- --dir <folder of OFAC's files>]
  writes functions/domain/listed-spellings.json: the spellings the sanctions list's aliases use for one name
  (the folder defaults to the snapshot in test/fixtures/ofac)`;
const LISTED_SPELLINGS_JSON = 'functions/domain/listed-spellings.json';

const values = commandLine(USAGE, { dir: { type: 'string', default: 'test/fixtures/ofac' } });
// Loaded once the command line is known to be right: --help reads no list.
const { listedSpellingsFile } = await import('#domain/spelling-mining');
const { parseListFiles, readListFiles } = await import('#functions/screening/load-lists');
const listings = parseListFiles(await readListFiles(values.dir)).filter((listing) => listing.list === 'sanctions');
const text = listedSpellingsFile(listings);
writeFileSync(join(REPO_ROOT, LISTED_SPELLINGS_JSON), text);
const { groups } = JSON.parse(text) as { groups: string[] };
console.log(`${listings.length} listed persons → ${groups.length} groups of spellings in ${LISTED_SPELLINGS_JSON}`);
