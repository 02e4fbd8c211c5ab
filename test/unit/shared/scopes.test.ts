import { describe, expect, it } from 'vitest';
import { grantedScopes } from '#shared/scopes';

describe('grantedScopes', () => {
  it('reads the space-separated scope claim, without the issuer’s prefix', () => {
    expect(grantedScopes('verify-service/read:persons verify-service/invoke:webhook', 'verify-service/')).toEqual([
      'read:persons',
      'invoke:webhook',
    ]);
    expect(grantedScopes('read:persons', '')).toEqual(['read:persons']);
  });

  it('reads an scp array as the authorizer flattens it (`[a b]`)', () => {
    expect(grantedScopes('[read:persons read:verify-accounts]', '')).toEqual(['read:verify-accounts', 'read:persons']);
  });

  it('grants nothing for a scope of another resource server, another prefix, or an unknown name', () => {
    expect(grantedScopes('other-api/read:persons', 'verify-service/')).toEqual([]);
    expect(grantedScopes('read:persons', 'verify-service/')).toEqual([]);
    expect(grantedScopes('verify-service/read:everything', 'verify-service/')).toEqual([]);
    expect(grantedScopes(undefined, '')).toEqual([]);
  });
});
