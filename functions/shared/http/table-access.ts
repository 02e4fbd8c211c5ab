import type { TableAction } from '#shared/db/schema';

/**
 * What the HTTP middleware stack itself asks of the table, on top of what a handler
 * calls: every route reads the tenant alias of the token's client id; a route whose
 * method takes an `Idempotency-Key` claims, completes and releases its record. The CDK
 * stack adds these to each route's grant, so a role holds exactly what its code calls.
 */
export const HTTP_STACK_TABLE_ACTIONS = {
  // The tenant alias and settings; the tenant's token bucket (an atomic take; when empty a read and a conditional refill).
  everyRoute: ['GetItem', 'UpdateItem', 'PutItem'],
  idempotentRoute: ['PutItem', 'UpdateItem', 'DeleteItem'],
} as const satisfies Record<string, readonly TableAction[]>;

/** Methods on which `Idempotency-Key` is honoured. */
export const IDEMPOTENT_METHODS: readonly string[] = ['POST', 'PATCH', 'DELETE'];
