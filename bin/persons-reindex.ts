import { commandLine, usageError } from '#lib/command-line';
import { deployedTableName } from '#lib/stack/deployed-table';
import { ENV } from '#shared/config';

// `npm run persons:reindex -- (--stack <name> | --table <name>)`: the one-off upgrade of a table whose persons
// were written before the re-screens walked them (docs/deploy.md#upgrading), with the
// operator's AWS credentials and region from the usual AWS environment. Safe to repeat.

const USAGE = `usage: npm run persons:reindex -- (--stack <stack name> | --table <table name>)
  moves persons written before the re-screens walked them to their screening shard; safe to repeat`;

const values = commandLine(USAGE, { stack: { type: 'string' }, table: { type: 'string' } });
if (!values.stack && !values.table && !process.env[ENV.tableName]) {
  usageError(USAGE, 'name the stack (--stack <name>) or the table (--table <name>)');
}
const table = await deployedTableName({ table: values.table ?? process.env[ENV.tableName], stack: values.stack }).catch(
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
const { reindexPersons } = await import('#functions/screening/reindex-persons');
const { documentClient } = await import('#shared/db/document-client');
const moved = await reindexPersons(documentClient(), table);
console.log(`${moved} persons moved to their screening shard in ${table}`);
