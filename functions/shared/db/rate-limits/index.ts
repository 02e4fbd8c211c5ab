import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { RateLimitRepository } from './repository';

export { RateLimitRepository } from './repository';

/** The tenants' token buckets on the service's table; tests may replace them. */
export const rateLimits = /* @__PURE__ */ port(
  'rateLimits',
  () => new RateLimitRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    rateLimits: RateLimitRepository;
  }
}
