import { AsyncLocalStorage } from 'node:async_hooks';

// Which tenant the running code acts for (issue 30): named once per unit of work by the
// code that knows it (the HTTP stack from the token's client, a queue worker from each
// message, a stream record's or a due item's own tenant), and read where the work is
// checked or, later, confined: the tests hold every table key to it
// (test/support/tenant-check.ts), and tenant-scoped credentials will be chosen by it.
// It changes no answer: nothing decides what to do from it.

/** One unit of work's tenant. `of`: a whole request's, or one piece of work's inside an invocation. */
export interface TenantScope {
  tenant: string | undefined;
  readonly of: 'request' | 'work';
}

const scopes = new AsyncLocalStorage<TenantScope>();

/** Runs `work` acting for `tenant`: a queue message, a stream record, a due item, an operator's decision. */
export function actingFor<T>(tenant: string, work: () => T): T {
  return scopes.run({ tenant, of: 'work' }, work);
}

/**
 * Runs a request whose tenant is named later, once, by the middleware that reads it from
 * the token (`nameRequestTenant`): middy runs its hooks one after another, so no hook can
 * wrap the rest of the request.
 */
export function asRequest<T>(request: () => T): T {
  return scopes.run({ tenant: undefined, of: 'request' }, request);
}

/**
 * Names the tenant of the request `asRequest` runs, for the rest of it. A request acts for
 * one tenant: naming another throws. Outside a request (a middleware tested alone) nothing.
 */
export function nameRequestTenant(tenant: string): void {
  const scope = scopes.getStore();
  if (scope?.of !== 'request') return;
  if (scope.tenant !== undefined && scope.tenant !== tenant)
    throw new Error(`a request acts for one tenant: ${scope.tenant} already, not ${tenant}`);
  scope.tenant = tenant;
}

/** The tenant the running code acts for; undefined where it acts for none (or for many). */
export const actingTenant = (): string | undefined => scopes.getStore()?.tenant;

/** The running code's scope, for the tests' check (a request's tenant or one piece of work's). */
export const tenantScope = (): Readonly<TenantScope> | undefined => scopes.getStore();
