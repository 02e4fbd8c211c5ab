import { commandLine, usageError } from '#lib/command-line';
import { ENV } from '#shared/config';

// `npm run persons:reindex -- --table <name>`: the one-off upgrade of a table whose persons
// were written before the re-screens walked them (docs/deploy.md#upgrading), with the
// operator's AWS credentials and region from the usual AWS environment. Safe to repeat.

const USAGE = `usage: npm run persons:reindex -- --table <table name>
  moves persons written before the re-screens walked them to their screening shard; safe to repeat`;

const values = commandLine(USAGE, { table: { type: 'string' } });
const table = values.table ?? process.env[ENV.tableName];
if (!table) usageError(USAGE, 'name the table: --table <table name> (or TABLE_NAME)');
const { reindexPersons } = await import('#functions/screening/reindex-persons');
const { documentClient } = await import('#shared/db/document-client');
const moved = await reindexPersons(documentClient(), table);
console.log(`${moved} persons moved to their screening shard in ${table}`);
