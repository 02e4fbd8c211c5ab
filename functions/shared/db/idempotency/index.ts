import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { IdempotencyRepository } from './repository';

export type { IdempotencyClaim, IdempotencyScope, StoredResponse } from './repository';
export { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_WINDOW_MS, IdempotencyRepository } from './repository';

/** The idempotency records on the service's table; tests may replace them. */
export const idempotencyRecords = /* @__PURE__ */ port(
  'idempotency',
  () => new IdempotencyRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    idempotency: IdempotencyRepository;
  }
}
