import { parseArgs } from 'node:util';
import { reindexPersons } from '#functions/screening/reindex-persons';
import { ENV } from '#shared/config';
import { documentClient } from '#shared/db/document-client';

// `npm run persons:reindex -- --table <name>`: the one-off upgrade of a table whose persons
// were written before the re-screens walked them (docs/deploy.md#upgrading), with the
// operator's AWS credentials and region from the usual AWS environment. Safe to repeat.

const { values } = parseArgs({ options: { table: { type: 'string' } } });
const table = values.table ?? process.env[ENV.tableName];
if (!table) {
  console.error('usage: npm run persons:reindex -- --table <table name>');
  process.exit(2);
}
const moved = await reindexPersons(documentClient(), table);
console.log(`${moved} persons moved to their screening shard in ${table}`);
