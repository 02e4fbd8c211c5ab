import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TenantRepository } from '#shared/db/tenants/index';

// The local runtime's operators (docs/local.md#operators): registered as a deployed stack
// registers context `operators`, by an alias record marking each one, so the review routes
// refuse every other local client as they refuse a partner in AWS.

/**
 * The client ids the local runtime registers as the service's operators, each its own
 * tenant: `ops`, which `npm run token -- --tenant ops --scope review:screening` mints for,
 * and `console-operator`, the console's (`OPERATOR_CLIENT` in lib/local/console/api.js). Any
 * other local client id is a partner's, refused on the review routes whatever its scopes.
 */
export const LOCAL_OPERATORS = ['ops', 'console-operator'] as const;

/** Puts the alias record of each local operator (on every start: a persisted table keeps them the same). */
export async function registerLocalOperators(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const aliases = new TenantRepository(db, tableName);
  for (const clientId of LOCAL_OPERATORS) await aliases.putAlias(clientId, clientId, { operator: true });
}
