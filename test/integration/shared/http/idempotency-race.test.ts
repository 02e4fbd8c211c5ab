import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hit } from '#domain/screening-match';
import { planScreening, storeScreening } from '#functions/screening-review/record-screening';
import type { LocalRuntime } from '#lib/local/runtime';
import { ROUTES, routeKey } from '#lib/service/index';
import { persons, type StoredPerson } from '#shared/db/persons/index';
import { hitIdOf } from '#shared/db/screening-hits/index';
import { IDEMPOTENT_METHODS } from '#shared/http/table-access';
import { SERVICE_SCOPES } from '#shared/scopes';
import { type ApiResponse, api, routeCallers, startTestRuntime } from '#test/integration/harness';
import { freshReference, personBody } from '#test/integration/persons/support';
import { accountBody, freshAccountNumber } from '#test/integration/verify-accounts/support';
import { useTestDns } from '#test/integration/webhooks/support';

/**
 * Two requests with one Idempotency-Key at once, on every route whose method takes the
 * key (docs/api.md#idempotency): one executes; the other either finds it still running
 * (`409 idempotency_key_in_use`) or replays its answer (`Idempotent-Replayed: true`, the
 * same status and body). Where the route creates something, exactly one thing exists.
 */
let runtime: LocalRuntime;
/** The tenant's client, which makes what the races need. */
let call: ReturnType<typeof api>;
/** The client that races each route: the tenant's, the operator's on an operator route. */
let callerOf: Awaited<ReturnType<typeof routeCallers>>;
let keyCounter = 0;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  useTestDns();
  // Every scope, the operators' too, and the operator's client on an operator route: every route is reached.
  callerOf = await routeCallers(runtime, 'tenant-race');
  call = api(runtime, await runtime.mintToken('tenant-race', SERVICE_SCOPES));
  await call.post('/webhooks/secret');
});
afterAll(() => runtime?.stop());

interface RaceCase {
  /** A valid request: its path (ids filled in) and body. */
  request: () => Promise<{ path: string; body?: unknown }>;
  /** How many records the request's route creates, read after the race; one means it ran once. */
  count?: (path: string, body: any) => Promise<number>;
}

const created = async (path: string, body: unknown, pick: (response: ApiResponse) => string) =>
  pick(await call.post(path, body));
const account = () =>
  created('/verify/accounts', accountBody({ account_number: freshAccountNumber() }), (r) => r.body.account.id);
const person = () => created('/persons', personBody(), (r) => r.body.person.id);
const configuration = () =>
  created(
    '/webhooks/configurations',
    { url: 'https://hooks.example.com/race', event_types: ['person_all'], enabled: true },
    (r) => r.body.webhook_configuration.id,
  );
const event = async () => {
  await call.post('/webhooks/invoke', { event_type: 'person_created' });
  return (await call.get('/events?test=true&size=1')).body.events[0].event_id as string;
};

/** A person with an open screening hit (identification does not run here: the hit is recorded as it would). */
const hit = async () => {
  const id = await person();
  const stored = (await persons().getStored('tenant-race', id)) as StoredPerson;
  const entryId = `SDN-RACE-${++keyCounter}`;
  const at = new Date();
  const hits: Hit[] = [
    {
      list: 'sanctions',
      source: 'SDN',
      entryId,
      listedName: 'DOE, Jane',
      matchedName: 'DOE, Jane',
      matchedKind: 'primary',
      score: 100,
      dateOfBirth: 'unknown',
      listingRevision: 'race',
    },
  ];
  await storeScreening(stored, await planScreening(stored, hits, 1, at), undefined, at);
  return hitIdOf({ tenant: 'tenant-race', personId: id, list: 'sanctions', entryId });
};

const RACES: Record<string, RaceCase> = {
  'POST /verify/accounts': {
    request: async () => ({ path: '/verify/accounts', body: accountBody({ account_number: freshAccountNumber() }) }),
    count: async (_path, body) =>
      (await call.get(`/verify/accounts?account_number=${body.account_number}`)).body.accounts.length,
  },
  // Still pending without a pipeline: the 400 statement_code_not_sent is kept and replayed like any answer below 500.
  'POST /verify/accounts/{id}/control': {
    request: async () => ({ path: `/verify/accounts/${await account()}/control`, body: { statement_code: 'AB12' } }),
  },
  'POST /verify/accounts/{id}/debits': {
    request: async () => ({ path: `/verify/accounts/${await account()}/debits` }),
  },
  'POST /persons': {
    request: async () => ({ path: '/persons', body: personBody({ customer_reference_id: freshReference() }) }),
    count: async (_path, body) =>
      (await call.get(`/persons?customer_reference_id=${body.customer_reference_id}`)).body.persons.length,
  },
  'PATCH /persons/{id}': {
    request: async () => ({ path: `/persons/${await person()}`, body: { first_name: 'Rae' } }),
  },
  'DELETE /persons/{id}': {
    request: async () => ({ path: `/persons/${await person()}` }),
  },
  'POST /local/sanctions/entries': {
    request: async () => ({ path: '/local/sanctions/entries', body: { name: `Race Case ${++keyCounter}` } }),
  },
  'POST /screening/hits/{id}/decision': {
    request: async () => ({ path: `/screening/hits/${await hit()}/decision`, body: { decision: 'confirmed' } }),
  },
  'POST /events/{id}/redeliver': {
    request: async () => ({ path: `/events/${await event()}/redeliver` }),
  },
  'POST /webhooks/invoke': {
    request: async () => ({ path: '/webhooks/invoke', body: { event_type: 'person_verified' } }),
  },
  'POST /webhooks/configurations': {
    request: async () => ({
      path: '/webhooks/configurations',
      body: { url: `https://hooks.example.com/race-${++keyCounter}`, event_types: ['person_all'], enabled: true },
    }),
    count: async (_path, body) =>
      (await call.get('/webhooks/configurations')).body.webhook_configurations.filter(
        (c: { url: string }) => c.url === body.url,
      ).length,
  },
  'DELETE /webhooks/configurations/{id}': {
    request: async () => ({ path: `/webhooks/configurations/${await configuration()}` }),
  },
  // `no-store`: never kept for replay, so a second request that finds the first done runs again.
  'POST /webhooks/secret': { request: async () => ({ path: '/webhooks/secret' }) },
};

const idempotentRoutes = ROUTES.filter((route) => IDEMPOTENT_METHODS.includes(route.method));

describe('one Idempotency-Key, two requests at once', () => {
  it('has a race for every route whose method takes an Idempotency-Key', () => {
    expect(Object.keys(RACES).sort()).toEqual(idempotentRoutes.map(routeKey).sort());
  });

  it.each(idempotentRoutes.map((route) => [routeKey(route), route] as const))(
    '%s: one executes, the other answers 409 idempotency_key_in_use or replays it',
    async (key, route) => {
      const race = RACES[key] as RaceCase;
      const { path, body } = await race.request();
      const headers = { 'idempotency-key': `race-${++keyCounter}` };

      const [a, b] = await Promise.all(
        [0, 1].map(() => callerOf(route).request(route.method, path, { body, headers })),
      );

      const answers = [a, b] as ApiResponse[];
      const executed = answers.filter((r) => r.status !== 409 && r.headers['idempotent-replayed'] === undefined);
      const others = answers.filter((r) => !executed.includes(r));
      expect(executed.length, JSON.stringify(answers)).toBeGreaterThanOrEqual(1);
      expect(executed[0]?.status).toBeLessThan(500);
      if (key === 'POST /webhooks/secret' && executed.length === 2) return; // one after the other, as documented
      expect(executed, JSON.stringify(answers)).toHaveLength(1);
      const [other] = others as [ApiResponse];
      if (other.status === 409) {
        expect(other.body.error_code).toBe('idempotency_key_in_use');
      } else {
        expect(other.headers['idempotent-replayed']).toBe('true');
        expect(other.status).toBe(executed[0]?.status);
        expect(other.body).toEqual(executed[0]?.body);
      }
      if (race.count) expect(await race.count(path, body)).toBe(1);
    },
  );
});
