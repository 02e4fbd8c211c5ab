import { KEY_PREFIX } from '#shared/db/keys';
import type { TableAction } from '#shared/db/schema';

/** Table actions confined to the items whose partition key matches one of `leadingKeys` (IAM `StringLike`). */
interface ConfinedTableAccess {
  readonly actions: readonly TableAction[];
  readonly leadingKeys: readonly string[];
}

/** Every partition key of one kind of record: its fixed prefix, then anything. */
const ofKind = (prefix: string): string => `${prefix}*`;

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
      leadingKeys: [KEY_PREFIX.tenantAlias, KEY_PREFIX.tenantSettings, KEY_PREFIX.rateBucket].map(ofKind),
    },
    { actions: ['PutItem', 'UpdateItem'], leadingKeys: [ofKind(KEY_PREFIX.rateBucket)] },
  ],
  idempotentRoute: [
    { actions: ['PutItem', 'UpdateItem', 'DeleteItem'], leadingKeys: [ofKind(KEY_PREFIX.idempotency)] },
  ],
} as const satisfies Record<string, readonly ConfinedTableAccess[]>;

/**
 * What a list route asks of the table beyond its row: reading and writing list positions
 * (cursors and bookmarks, functions/shared/db/list-positions/), confined to their keys.
 */
export const LIST_POSITION_TABLE_ACCESS = {
  actions: ['GetItem', 'PutItem'],
  leadingKeys: [ofKind(KEY_PREFIX.listPosition)],
} as const satisfies ConfinedTableAccess;

/** Methods on which `Idempotency-Key` is honoured. */
export const IDEMPOTENT_METHODS: readonly string[] = ['POST', 'PATCH', 'DELETE'];

/**
 * The constant the CDK defines in each API function's bundle (`ApiFunction`): true where
 * the route's method takes an `Idempotency-Key`, the only bundles that then carry the
 * idempotency middleware and its records (functions/shared/http/handler.ts).
 */
export const IDEMPOTENCY_BUNDLE_CONSTANT = 'IDEMPOTENCY_IN_BUNDLE';
