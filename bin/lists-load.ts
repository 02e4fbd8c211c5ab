import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadScreeningList } from '#functions/screening/load-lists';
import { ENV } from '#shared/config';

// `npm run lists:load -- --table <name> [--sanctions <sdn.csv>] [--alerts <alerts.csv>]`:
// writes screening lists into a deployed table (AWS credentials and region from the usual
// AWS environment), which re-screens the verified persons of every name it adds. The
// table name is the stack's `TableName` output; `TABLE_NAME` works too.

const { values } = parseArgs({
  options: { table: { type: 'string' }, sanctions: { type: 'string' }, alerts: { type: 'string' } },
});
const table = values.table ?? process.env[ENV.tableName];
if (!table || (!values.sanctions && !values.alerts)) {
  console.error('usage: npm run lists:load -- --table <table name> [--sanctions <sdn.csv>] [--alerts <alerts.csv>]');
  process.exit(2);
}
process.env[ENV.tableName] = table;

for (const list of ['sanctions', 'alerts'] as const) {
  const file = values[list];
  if (!file) continue;
  const count = await loadScreeningList(list, await readFile(file, 'utf8'));
  console.log(`${list}: ${count} entries from ${file} written to ${table}`);
}
