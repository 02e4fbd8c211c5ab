import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { PERSON_WRITE_RETRY } from '#functions/persons/change-person';
import { DEFAULT_FUNCTION_TIMEOUT_MS } from '#lib/local/lambda-invoker';
import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { PersonRepository, type StoredPerson } from '#shared/db/persons/index';
import { personKeys } from '#shared/db/persons/keys';
import { setDependencies } from '#shared/dependencies';
import { retryingClient } from '#test/support/retrying-client';
import { freshReference, letters, personBody, usePersonsRuntime } from './support';

/** The persons API over HTTP: shapes, uniqueness, tenant isolation, updates, concurrency. */
const env = usePersonsRuntime();

/**
 * The persons repository with a barrier on one person's first `count` reads: each waits
 * until all of them have read, so the writers all decide on the same version and really
 * race, however the machine schedules their requests. Later reads (a lost race decided
 * again) pass at once. The first reader waits for the last: under 1 s with two spin loops
 * beside the test, but in a full `npm test` on a loaded machine past a function's 10 s at
 * times, which its client retries as a partner would (`retryingClient`).
 */
class RacingReads extends PersonRepository {
  readonly versionsRead: (number | undefined)[] = [];
  private readonly allRead: Promise<void>;
  private release = () => {};

  constructor(
    private readonly personId: string,
    private readonly count: number,
  ) {
    super(documentClient(), tableName());
    this.allRead = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  override async getStored(tenant: string, id: string): Promise<StoredPerson | undefined> {
    const stored = await super.getStored(tenant, id);
    if (id !== this.personId || this.versionsRead.length >= this.count) return stored;
    this.versionsRead.push(stored?.person.version);
    if (this.versionsRead.length === this.count) this.release();
    await this.allRead;
    return stored;
  }
}

/**
 * What the 20 concurrent PATCHes may take before the test gives up
 * (docs/testing.md#on-a-busy-machine): every PATCH losing all its attempts, each a read
 * and a write (`PERSON_WRITE_RETRY`), then each sent again, on top of one function timeout
 * for a first reader the barrier held past it. 26 ms a round measured idle, 45 ms with
 * two spin loops beside the test; a full `npm test` on a loaded machine ran past a flat
 * 30 s with about 105 rounds.
 */
const PATCHES = 20;
const MS_PER_ROUND = 400;
const CONCURRENT_PATCHES_BUDGET_MS =
  DEFAULT_FUNCTION_TIMEOUT_MS + (PATCHES * PERSON_WRITE_RETRY.attempts + PATCHES) * MS_PER_ROUND;

/** The person's stored version: one more for every write. */
async function storedVersion(id: string): Promise<number | undefined> {
  const stored = await documentClient().send(
    new GetCommand({ TableName: env.runtime.tableName, Key: personKeys.person('tenant-alice', id) }),
  );
  return stored.Item?.version;
}

describe('POST /persons and GET /persons/{id}', () => {
  it('answers the person as Orum does: addresses and contacts with ids and timestamps, never the SSN', async () => {
    const body = personBody({ middle_name: 'Q', metadata: { crm: '42' } });
    const created = await env.alice.post('/persons', body);
    expect(created.status).toBe(200);
    const { person } = created.body;
    expect(person).toMatchObject({
      id: expect.any(String),
      customer_reference_id: body.customer_reference_id,
      first_name: 'Jane',
      middle_name: 'Q',
      last_name: 'Doe',
      date_of_birth: '1990-04-12',
      status: 'created',
      metadata: { crm: '42' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(person.addresses).toEqual([
      {
        id: expect.any(String),
        type: 'home',
        address1: '1 Main Street',
        city: 'Springfield',
        state: 'IL',
        country: 'US',
        zip5: '62701',
        created_at: person.created_at,
        updated_at: person.created_at,
      },
    ]);
    expect(person.contacts).toEqual([
      {
        id: expect.any(String),
        type: 'email',
        value: 'jane@example.com',
        created_at: person.created_at,
        updated_at: person.created_at,
      },
    ]);
    const text = JSON.stringify(created.body);
    for (const hidden of ['6789', 'social_security_number', 'ssn', 'has_ssn', 'tenant', 'identification_attempts']) {
      expect(text).not.toContain(hidden);
    }
    const fetched = await env.alice.get(`/persons/${person.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.person.id).toBe(person.id);
  });

  it('omits empty arrays and absent fields', async () => {
    const created = await env.alice.post('/persons', {
      customer_reference_id: freshReference(),
      first_name: 'A',
      last_name: 'Bee',
    });
    expect(Object.keys(created.body.person).sort()).toEqual(
      ['created_at', 'customer_reference_id', 'first_name', 'id', 'last_name', 'status', 'updated_at'].sort(),
    );
  });

  it('refuses a second person with the same customer_reference_id, even at the same moment: 409 duplicate_customer_reference_id', async () => {
    const reference = freshReference();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => env.alice.post('/persons', personBody({ customer_reference_id: reference }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(results.find((r) => r.status === 409)?.body.error_code).toBe('duplicate_customer_reference_id');
    const listed = await env.alice.get(`/persons?customer_reference_id=${reference}`);
    expect(listed.body.persons).toHaveLength(1);
  });

  it('keeps tenants apart: the same reference id in two tenants, and another tenant’s id answers 404 unknown_id_person', async () => {
    const reference = freshReference();
    const mine = await env.alice.post('/persons', personBody({ customer_reference_id: reference }));
    const theirs = await env.bob.post('/persons', personBody({ customer_reference_id: reference }));
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    for (const call of [
      env.bob.get(`/persons/${mine.body.person.id}`),
      env.bob.patch(`/persons/${mine.body.person.id}`, { first_name: 'X' }),
      env.bob.delete(`/persons/${mine.body.person.id}`),
    ]) {
      const response = await call;
      expect(response.status).toBe(404);
      expect(response.body.error_code).toBe('unknown_id_person');
    }
    expect((await env.alice.get(`/persons/${mine.body.person.id}`)).body.person.status).not.toBe('closed');
  });

  it('needs write:persons to change a person: 403 with read:persons only', async () => {
    expect((await env.readOnly.post('/persons', personBody())).status).toBe(403);
  });
});

describe('PATCH, PUT and DELETE /persons', () => {
  it('PATCH changes the given fields; null removes an optional field and never clears a required one', async () => {
    const { person } = (await env.alice.post('/persons', personBody({ middle_name: 'Q' }))).body;
    const patched = await env.alice.patch(`/persons/${person.id}`, { middle_name: null, contacts: null });
    expect(patched.status).toBe(200);
    expect(patched.body.person).not.toHaveProperty('middle_name');
    expect(patched.body.person).not.toHaveProperty('contacts');
    expect(patched.body.person.first_name).toBe('Jane');
    const refused = await env.alice.patch(`/persons/${person.id}`, { first_name: null });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe('invalid_first_name');
  });

  it('PATCH of a new customer_reference_id frees the old one', async () => {
    const { person } = (await env.alice.post('/persons', personBody())).body;
    const renamed = freshReference();
    expect((await env.alice.patch(`/persons/${person.id}`, { customer_reference_id: renamed })).status).toBe(200);
    const reused = await env.alice.post(
      '/persons',
      personBody({ customer_reference_id: person.customer_reference_id }),
    );
    expect(reused.status).toBe(200);
    const clash = await env.alice.patch(`/persons/${reused.body.person.id}`, { customer_reference_id: renamed });
    expect(clash.status).toBe(409);
    expect(clash.body.error_code).toBe('duplicate_customer_reference_id');
  });

  it(
    '20 PATCHes of one person that all read it before any writes: each ends in 200 or 409 concurrent_update (retried as partners retry), every 200 is written once, the record is the last of them, and a 409 sent again is written',
    async () => {
      // Names only: no identification writes in between, so the version counts the PATCHes.
      const { person } = (
        await env.alice.post('/persons', {
          customer_reference_id: freshReference(),
          first_name: 'Con',
          last_name: 'Current',
        })
      ).body;
      const bodies = Array.from({ length: PATCHES }, (_, n) =>
        n % 2 ? { middle_name: `M${letters(n)}` } : { metadata: { key: `v${n}` } },
      );
      const racing = new RacingReads(person.id, bodies.length);
      setDependencies({ persons: racing });
      // Sent as partners send them (docs/api.md#retrying): a 503 from DynamoDB Local slowed by a
      // busy machine is sent again with the same Idempotency-Key; a 409 concurrent_update is final here.
      const client = retryingClient(env.alice);
      const answers = await Promise.all(bodies.map((body) => client.patch(`/persons/${person.id}`, body))).finally(() =>
        setDependencies({ persons: undefined }),
      );

      // They all decided on the version they read, the same one: only one can win that round.
      expect(racing.versionsRead).toEqual(bodies.map(() => 1));
      // docs/api.md#person-routes: a write lost to others is decided again on the fresh person, and
      // answers 409 concurrent_update only once every retry lost.
      const outcomes = answers.map((answer) =>
        answer.status === 200 ? 'written' : `${answer.status} ${answer.body.error_code}`,
      );
      expect(outcomes.filter((outcome) => outcome !== 'written' && outcome !== '409 concurrent_update')).toEqual([]);
      const accepted = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.person);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      // Each accepted answer shows its own change, and none was lost or written twice.
      answers.forEach((answer, n) => {
        if (answer.status === 200) expect(answer.body.person).toMatchObject(bodies[n] as Record<string, unknown>);
      });
      expect(await storedVersion(person.id)).toBe(1 + accepted.length);
      // The record is what the last accepted write answered.
      const current = (await env.alice.get(`/persons/${person.id}`)).body.person;
      expect(accepted).toContainEqual(current);
      expect(current.updated_at).toBe(
        accepted
          .map((written) => written.updated_at)
          .sort()
          .at(-1),
      );

      // A 409 concurrent_update is to be retried: sent again, each is written.
      const refused = bodies.filter((_, n) => answers[n]?.status === 409);
      for (const body of refused) expect((await client.patch(`/persons/${person.id}`, body)).status).toBe(200);
      expect(await storedVersion(person.id)).toBe(1 + bodies.length);
    },
    CONCURRENT_PATCHES_BUDGET_MS,
  );

  it('PUT /persons/{id} replaces: what the body leaves out is removed', async () => {
    const { person } = (await env.alice.post('/persons', personBody({ middle_name: 'Q', metadata: { a: 'b' } }))).body;
    const replaced = await env.alice.put(`/persons/${person.id}`, {
      customer_reference_id: person.customer_reference_id,
      first_name: 'Jane',
      last_name: 'Roe',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.person).toMatchObject({ last_name: 'Roe' });
    for (const gone of ['middle_name', 'metadata', 'addresses', 'contacts', 'date_of_birth']) {
      expect(replaced.body.person).not.toHaveProperty(gone);
    }
  });

  it('PUT /persons/{id} replaces the address whole: an address2 it leaves out is removed, the address keeps its id', async () => {
    const body = personBody();
    const [home] = body.addresses;
    const { person } = (await env.alice.post('/persons', { ...body, addresses: [{ ...home, address2: 'Apt 4' }] }))
      .body;
    const replaced = await env.alice.put(`/persons/${person.id}`, body);
    expect(replaced.status).toBe(200);
    const [address] = replaced.body.person.addresses;
    expect(address).not.toHaveProperty('address2');
    expect(address).toMatchObject({ ...home, id: person.addresses[0].id, created_at: person.addresses[0].created_at });
  });

  it('PATCH with address2 null or empty removes it and keeps the rest of the stored address', async () => {
    const body = personBody();
    const [home] = body.addresses;
    const { person } = (await env.alice.post('/persons', { ...body, addresses: [{ ...home, address2: 'Apt 4' }] }))
      .body;
    for (const address2 of [null, '']) {
      const patched = await env.alice.patch(`/persons/${person.id}`, { addresses: [{ type: 'home', address2 }] });
      expect(patched.status).toBe(200);
      expect(patched.body.person.addresses).toEqual([
        {
          ...home,
          id: person.addresses[0].id,
          created_at: person.addresses[0].created_at,
          updated_at: expect.any(String),
        },
      ]);
    }
  });

  it('PUT /persons creates the person of a new reference id, then replaces it', async () => {
    const body = personBody();
    const first = await env.alice.put('/persons', body);
    const second = await env.alice.put('/persons', { ...body, first_name: 'Janet' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.person.id).toBe(first.body.person.id);
    expect(second.body.person.first_name).toBe('Janet');
  });

  it('Idempotency-Key replays a PATCH and a DELETE', async () => {
    const { person } = (await env.alice.post('/persons', personBody())).body;
    const headers = { 'idempotency-key': `patch-${person.id}` };
    const first = await env.alice.patch(`/persons/${person.id}`, { middle_name: 'Z' }, { headers });
    const replay = await env.alice.patch(`/persons/${person.id}`, { middle_name: 'Z' }, { headers });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const closeHeaders = { headers: { 'idempotency-key': `close-${person.id}` } };
    const closed = await env.alice.delete(`/persons/${person.id}`, closeHeaders);
    expect((await env.alice.delete(`/persons/${person.id}`, closeHeaders)).headers['idempotent-replayed']).toBe('true');
    expect(closed.body.person.status).toBe('closed');
  });
});

describe('GET /persons', () => {
  it('lists newest first with status, name (case-insensitive exact) and time filters, paged by index and size', async () => {
    const surname = `Lister${letters(Date.now())}`;
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) {
      const created = await env.bob.post('/persons', {
        customer_reference_id: freshReference(),
        first_name: `P${letters(n)}`,
        last_name: surname,
      });
      ids.push(created.body.person.id);
    }
    const byName = await env.bob.get(`/persons?last_name=${surname.toUpperCase()}`);
    expect(byName.body.persons.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    const page = await env.bob.get(`/persons?last_name=${surname}&size=2&index=1`);
    expect(page.body.persons.map((p: { id: string }) => p.id)).toEqual([ids[1], ids[0]]);
    const created = await env.bob.get(`/persons?last_name=${surname}&status=created&first_name=p${letters(2)}`);
    expect(created.body.persons.map((p: { id: string }) => p.id)).toEqual([ids[2]]);
    const none = await env.bob.get(`/persons?last_name=${surname}&status=verified`);
    expect(none.body.persons).toEqual([]);
  });
});
