import { describe, expect, it } from 'vitest';
import { clientUserIdOf, parseClientUserId } from '#shared/identity-vendor/plaid/client-user-id';

const CHECK = { tenant: 'acme', id: '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b', identityRev: 3 };

describe("Plaid's client_user_id of an identification", () => {
  it('names the tenant, the person and the identity revision, and reads back as them', () => {
    expect(clientUserIdOf(CHECK)).toBe('acme.0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b.3');
    expect(parseClientUserId(clientUserIdOf(CHECK))).toEqual(CHECK);
  });

  it('is the same for a repeated identification of one revision, another for a new revision', () => {
    expect(clientUserIdOf(CHECK)).toBe(clientUserIdOf({ ...CHECK }));
    expect(clientUserIdOf({ ...CHECK, identityRev: 4 })).not.toBe(clientUserIdOf(CHECK));
  });

  it('names no person for an id this service did not make', () => {
    for (const other of [
      'user-123',
      'acme.not-a-uuid.1',
      'acme.0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b.0',
      '.0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b.1',
      `${'a'.repeat(65)}.0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b.1`,
      42,
      undefined,
    ]) {
      expect(parseClientUserId(other), String(other)).toBeUndefined();
    }
  });
});
