import type { KeyKind } from '#shared/db/key-kinds';
import type { TableAction } from '#shared/db/schema';

/** Table actions confined to the items of the kinds named (`KEY_PREFIX`; `dynamodb:LeadingKeys` `<prefix>*`). */
interface ConfinedTableAccess {
  readonly actions: readonly TableAction[];
  readonly leadingKeys: readonly KeyKind[];
}

/**
 * What the HTTP middleware stack itself asks of the table, on top of what a handler
 * calls, each confined by `dynamodb:LeadingKeys` to the records it touches: every route
 * reads the tenant alias of the token's client id and the tenant's settings, and takes a
 * token from the tenant's bucket (an atomic update; when empty a read and a conditional
 * refill); a route whose method takes an `Idempotency-Key` claims, completes and releases
 * its record. The CDK stack adds these to each route's grant beside the route's own row,
 * so a read-only route can write no data item (docs/data-model.md#keys-the-http-stack-writes).
 */
export const HTTP_STACK_TABLE_ACCESS = {
  everyRoute: [
    {
      actions: ['GetItem'],
      leadingKeys: ['tenantAlias', 'tenantSettings', 'rateBucket'],
    },
    { actions: ['PutItem', 'UpdateItem'], leadingKeys: ['rateBucket'] },
  ],
  idempotentRoute: [{ actions: ['PutItem', 'UpdateItem', 'DeleteItem'], leadingKeys: ['idempotency'] }],
} as const satisfies Record<string, readonly ConfinedTableAccess[]>;

/**
 * What a list route asks of the table beyond its row: reading and writing list positions
 * (cursors and bookmarks, functions/shared/db/list-positions/), confined to their keys.
 */
export const LIST_POSITION_TABLE_ACCESS = {
  actions: ['GetItem', 'PutItem'],
  leadingKeys: ['listPosition'],
} as const satisfies ConfinedTableAccess;

/** Methods on which `Idempotency-Key` is honoured. */
export const IDEMPOTENT_METHODS: readonly string[] = ['POST', 'PATCH', 'DELETE'];

/**
 * The constant the CDK defines in each API function's bundle (`ApiFunction`): true where
 * the route's method takes an `Idempotency-Key`, the only bundles that then carry the
 * idempotency middleware and its records (functions/shared/http/handler.ts).
 */
export const IDEMPOTENCY_BUNDLE_CONSTANT = 'IDEMPOTENCY_IN_BUNDLE';
