import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { TenantRepository } from './repository';

export type { ClientAlias } from './repository';
export { TenantRepository } from './repository';

/** The tenant aliases and settings on the service's table; tests may replace them. */
export const tenants = /* @__PURE__ */ port('tenants', () => new TenantRepository(documentClient(), tableName()));

declare module '#shared/dependencies' {
  interface Dependencies {
    tenants: TenantRepository;
  }
}
