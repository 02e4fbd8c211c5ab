import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { personKeys } from '#shared/db/persons/keys';
import { checkRecorded } from '#test/support/table-access-recorder';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';

// The tenant check bites (issue 30): a key builder that mixes tenants up, here in the
// person's key, fails the test that reaches it; and the function's tenant role refuses the
// other tenant's item, as IAM refuses it in AWS (the local runtime's IAM stand-in,
// docs/local.md#tenant-scoped-credentials), so the request fails instead of leaking it.

let runtime: LocalRuntime;
let alice: ReturnType<typeof api>;
let bob: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  alice = api(runtime, await runtime.mintToken('tenant-alice'));
  bob = api(runtime, await runtime.mintToken('tenant-bob'));
});
afterAll(() => runtime?.stop());

describe('the per-invocation tenant check', () => {
  it('fails a request of one tenant that reads another tenant’s record through a wrong key builder', async () => {
    const theirs = await bob.post('/persons', personBody());
    expect(theirs.status).toBe(200);
    await runtime.settle();
    checkRecorded();

    const person = personKeys.person;
    const wrong = vi
      .spyOn(personKeys, 'person')
      .mockImplementation((tenant, id) => person(tenant === 'tenant-alice' ? 'tenant-bob' : tenant, id));
    let leaked: Awaited<ReturnType<typeof alice.get>>;
    try {
      leaked = await alice.get(`/persons/${theirs.body.person.id}`);
    } finally {
      wrong.mockRestore();
    }

    // The tenant role stops it: GetPerson, acting for alice, may not read bob's key.
    expect(leaked.status).toBe(500);
    expect(runtime.tenantAccess.denials()).toEqual([
      expect.objectContaining({
        role: 'GetPerson',
        tenant: 'tenant-alice',
        action: 'dynamodb:GetItem',
        keys: [`T#tenant-bob#P#${theirs.body.person.id}`],
      }),
    ]);

    expect(() => checkRecorded()).toThrow(
      new RegExp(
        `GetPerson sent GetCommand on T#tenant-bob#P#${theirs.body.person.id}, a key of tenant tenant-bob, while acting for tenant-alice`,
      ),
    );
  });

  it('passes the same request with the service’s own key builder: another tenant’s id answers 404', async () => {
    const theirs = await bob.post('/persons', personBody());
    await runtime.settle();
    const mine = await alice.get(`/persons/${theirs.body.person.id}`);
    expect(mine.status).toBe(404);
    expect(() => checkRecorded()).not.toThrow();
  });
});
