import type { Scope } from '../functions/shared/scopes';

/**
 * The service, described once. The CDK stack makes one Lambda function and one HTTP API
 * route per entry; the local runtime mounts the very same handler modules. Add an
 * endpoint by adding a handler file and a row here.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a function may do with the table: the grant is derived from this alone. */
export type TableAccess = 'read' | 'readwrite';

/** What a function may do with the cipher key (SSNs and tax ids). */
export type CipherAccess = 'encrypt' | 'decrypt';

export interface RouteDefinition {
  /** Stable PascalCase name: construct ids, function names and log fields derive from it. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway route path, with `{param}` placeholders. */
  readonly path: string;
  /**
   * OAuth scopes of the route. Like API Gateway's JWT authorizer, a token must carry at
   * least one of them; every route names exactly one, so that is also "all of them".
   */
  readonly scopes: readonly Scope[];
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly handler: string;
  readonly table: TableAccess;
  readonly cipher?: CipherAccess;
}

/** Every API function's timeout: below API Gateway's 30 s limit; the local runtime enforces the same. */
export const API_FUNCTION_TIMEOUT_SECONDS = 10;

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'CreateVerifyAccount',
    method: 'POST',
    path: '/verify/accounts',
    scopes: ['write:verify-accounts'],
    handler: 'functions/verify-accounts/create.ts',
    table: 'readwrite',
    cipher: 'encrypt',
  },
  {
    id: 'ListVerifyAccounts',
    method: 'GET',
    path: '/verify/accounts',
    scopes: ['read:verify-accounts'],
    handler: 'functions/verify-accounts/list.ts',
    table: 'read',
  },
  {
    id: 'GetVerifyAccount',
    method: 'GET',
    path: '/verify/accounts/{id}',
    scopes: ['read:verify-accounts'],
    handler: 'functions/verify-accounts/get.ts',
    table: 'read',
  },
  {
    id: 'VerifyAccountControl',
    method: 'POST',
    path: '/verify/accounts/{id}/control',
    scopes: ['write:verify-accounts'],
    handler: 'functions/verify-accounts/control.ts',
    table: 'readwrite',
  },
];

/** API Gateway route key, e.g. `POST /verify/accounts/{id}/control`. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string =>
  `${route.method} ${route.path}`;
