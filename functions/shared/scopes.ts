/**
 * OAuth scopes of the contract (docs/api.md#scopes). The Cognito resource server declares
 * exactly these; the route table picks from them.
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
