/**
 * OAuth scopes of the contract (docs/api.md#scopes): what partners may be granted. The
 * Cognito resource server declares these and the operators' (`SERVICE_SCOPES`); the route
 * table picks from both.
 */
export const SCOPES = [
  'read:verify-accounts',
  'write:verify-accounts',
  'read:persons',
  'write:persons',
  'read:webhook-configurations',
  'write:webhook-configurations',
  'read:webhook-secret',
  'write:webhook-secret',
  'invoke:webhook',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * The service's own operators' scopes (docs/api.md#hits-to-review), beyond the contract's:
 * declared on the same resource server, granted only to operator clients (context
 * `operators`), never to a partner (lib/context/identity.ts refuses them there).
 */
export const OPERATOR_SCOPES = ['review:screening'] as const;

export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** Every scope a route may name: the partners' and the operators'. */
export const SERVICE_SCOPES = [...SCOPES, ...OPERATOR_SCOPES] as const;

export type ServiceScope = (typeof SERVICE_SCOPES)[number];

export const isOperatorScope = (value: unknown): value is OperatorScope =>
  (OPERATOR_SCOPES as readonly unknown[]).includes(value);

/** Resource-server identifier; Cognito prefixes each scope with it (`<id>/<scope>`). */
export const RESOURCE_SERVER_ID = 'verify-service';

/**
 * The contract's scopes a token grants, from its `scope` claim as API Gateway's JWT
 * authorizer hands it on (a space-separated string; an `scp` array arrives as `[a b]`),
 * each without the issuer's prefix (`JWT_SCOPE_PREFIX`, e.g. `verify-service/`). A word
 * without that exact prefix, or naming no scope of the contract, grants nothing: a scope of
 * another resource server must not pass for one of ours.
 */
export function grantedScopes(claim: unknown, prefix: string): Scope[] {
  if (typeof claim !== 'string') return [];
  const words = claim.replace(/^\[(.*)\]$/, '$1').split(' ');
  return SCOPES.filter((scope) => words.includes(`${prefix}${scope}`));
}
