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
