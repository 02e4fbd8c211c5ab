import { parseArgs } from 'node:util';
import { loadListsFolder } from '#functions/screening/load-lists';
import { ENV } from '#shared/config';

// `npm run lists:load -- --table <name> --dir <folder>`: writes the screening lists of a
// folder into a deployed table (AWS credentials and region from the usual AWS
// environment): OFAC's files as published (`sdn.csv`, `alt.csv`, `add.csv`, `cons_prim.csv`,
// `cons_alt.csv`) and the service's `alerts.csv`, each where present. A malformed file
// names its file and line, and nothing is written. The table name is the stack's
// `TableName` output; `TABLE_NAME` works too.

const { values } = parseArgs({ options: { table: { type: 'string' }, dir: { type: 'string' } } });
const table = values.table ?? process.env[ENV.tableName];
if (!table || !values.dir) {
  console.error('usage: npm run lists:load -- --table <table name> --dir <folder of list files>');
  process.exit(2);
}
process.env[ENV.tableName] = table;

const counts = await loadListsFolder(values.dir);
console.log(
  `${counts.sanctions} sanctioned and ${counts.alerts} alerted persons from ${values.dir} written to ${table}`,
);
