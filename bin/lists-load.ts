import { commandLine, usageError } from '#lib/command-line';
import { deployedTableName } from '#lib/stack/deployed-table';
import { ENV } from '#shared/config';

// `npm run lists:load -- --table <name> (--dir <folder> | --url <base URL>) [--force]`:
// refreshes the screening lists of a deployed table (AWS credentials and region from the
// usual AWS environment) as the daily ListsRefresh does, from a folder of OFAC's files as
// published (`sdn.csv`, `alt.csv`, `add.csv`, `cons_prim.csv`, `cons_alt.csv`) and the
// service's `alerts.csv`, each where present, or from OFAC's files under an https:// URL. Only what
// differs from the table is written. A malformed file names its file and line, a copy the
// checks refuse says why, and nothing is written; `--force` writes a refused copy
// (docs/operations.md#screening-lists-refresh-failed). The table is found from the stack's
// name (its `TableName` output, `--stack`), or named outright (`--table`, or `TABLE_NAME`).

const USAGE = `usage: npm run lists:load -- (--stack <stack name> | --table <table name>) (--dir <folder of list files> | --url <https base URL of OFAC's files>) [--force]
  writes what differs between the lists given and the table's (the stack's TableName output, or the table named);
  --force writes a copy the checks refuse (docs/operations.md)`;

const values = commandLine(USAGE, {
  stack: { type: 'string' },
  table: { type: 'string' },
  dir: { type: 'string' },
  url: { type: 'string' },
  force: { type: 'boolean', default: false },
});
if (!values.stack && !values.table && !process.env[ENV.tableName]) {
  usageError(USAGE, 'name the stack (--stack <name>) or the table (--table <name>)');
}
if (Boolean(values.dir) === Boolean(values.url)) usageError(USAGE, 'give one of --dir and --url');
// Loaded once the command line is known to be right: --help reads no configuration.
const { refreshLists } = await import('#functions/screening/refresh-lists');
const { httpsUrl, OFAC_LISTS_URL } = await import('#functions/screening/download-lists');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** `--url`, refused unless https: the lists decide who is sanctioned (the daily refresh's setting is held to the same). */
function baseUrl(value: string): string {
  const url = httpsUrl(value);
  return url
    ? url.href
    : fail(`--url must be an https:// URL (OFAC's is ${OFAC_LISTS_URL}), not ${JSON.stringify(value)}`);
}

const source = values.dir ? { dir: values.dir } : { url: baseUrl(values.url as string) };
const table = await deployedTableName({ table: values.table ?? process.env[ENV.tableName], stack: values.stack }).catch(
  (error: Error) => fail(error.message),
);
process.env[ENV.tableName] = table;

const started = Date.now();
const outcome = await refreshLists(source, { force: values.force });
const counts = Object.entries(outcome.counts)
  .map(([name, count]) => `${count} ${name}`)
  .join(', ');
console.log(
  `${values.dir ?? values.url} → ${table}: ${counts}; ${outcome.put} listings written, ${outcome.removed} taken off` +
    `${outcome.changeId ? `, change ${outcome.changeId}` : ' (unchanged)'} in ${Date.now() - started} ms`,
);
