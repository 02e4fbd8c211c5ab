import { beforeAll, describe, expect, it } from 'vitest';
import { ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { type ApiResponse, api } from '../harness';
import { useWebhooksRuntime } from '../webhooks/support';

/**
 * The event log carries persons and accounts as their GET routes answer them: an event is
 * read with the read scope of the area it comes from (docs/api.md#event-log), never with a
 * webhook-configuration scope. The events here are test events (`POST /webhooks/invoke`),
 * which follow their kind's area too; the log lists them only with `test=true`.
 */
const env = useWebhooksRuntime();
const TENANT = 'tenant-scopes';
let personEventId: string;
let accountEventId: string;

type Client = ReturnType<typeof api>;
const client = async (scopes: string[]): Promise<Client> =>
  api(env.runtime, await env.runtime.mintToken(TENANT, scopes));
const eventIds = (answer: { body: { events: { event_id: string }[] } }) => answer.body.events.map((e) => e.event_id);

beforeAll(async () => {
  const all = api(env.runtime, await env.runtime.mintToken(TENANT));
  expect((await all.post('/webhooks/invoke', { event_type: 'person_created' })).status).toBe(201);
  expect((await all.post('/webhooks/invoke', { event_type: 'verify_account_updated' })).status).toBe(201);
  const listed = (await all.get('/events?test=true')).body.events as { event_id: string; event_type: string }[];
  personEventId = listed.find((e) => e.event_type === 'person_created')?.event_id as string;
  accountEventId = listed.find((e) => e.event_type === 'verify_account_updated')?.event_id as string;
});

describe('event log scopes', () => {
  it('a token with only read:webhook-configurations reads no event: GET /events and GET /events/{id} answer 403', async () => {
    const configurations = await client(['read:webhook-configurations']);
    expect((await configurations.get('/events?test=true')).status).toBe(403);
    expect((await configurations.get(`/events/${personEventId}`)).status).toBe(403);
    expect((await configurations.get(`/events/${accountEventId}`)).status).toBe(403);
  });

  it('a token with only read:verify-accounts lists account events and no person events, and reads only account events', async () => {
    const accounts = await client(['read:verify-accounts']);
    const listed = await accounts.get('/events?test=true');
    expect(listed.status).toBe(200);
    expect(eventIds(listed)).toEqual([accountEventId]);
    expect((await accounts.get(`/events/${accountEventId}`)).status).toBe(200);
    const person = await accounts.get(`/events/${personEventId}`);
    expect(person.status).toBe(403);
    expect(person.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { required_scopes: ['read:persons'] },
    });
  });

  it('a token with only read:persons lists and reads person events only (test events follow their type’s area)', async () => {
    const persons = await client(['read:persons']);
    const listed = await persons.get('/events?test=true');
    expect(eventIds(listed)).toEqual([personEventId]);
    expect((await persons.get(`/events/${personEventId}`)).status).toBe(200);
    expect((await persons.get(`/events/${accountEventId}`)).body.error_code).toBe('insufficient_scope');
  });

  it('a cursor another client of the tenant was given serves no kind this token cannot read: 400 invalid_cursor', async () => {
    const all = await client(['read:verify-accounts', 'read:persons']);
    const first = await all.get('/events?test=true&size=1');
    const target = /^<([^>]+)>/.exec(first.headers.link ?? '')?.[1] as string;
    expect(target).toMatch(/^\/events\?cursor=/);
    const accounts = await client(['read:verify-accounts']);
    const refused = await accounts.get(target);
    expect([refused.status, refused.body.error_code]).toEqual([400, 'invalid_cursor']);
    expect((await all.get(target)).status).toBe(200);
  });

  it('an event_type filter naming a kind the token cannot read answers 403 insufficient_scope, not an empty page', async () => {
    const accounts = await client(['read:verify-accounts']);
    const filtered = await accounts.get(
      '/events?test=true&event_type=verify_account_updated&event_type=person_created',
    );
    expect(filtered.status).toBe(403);
    expect(filtered.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { event_types: ['person_created'], required_scopes: ['read:persons'] },
    });
    expect(eventIds(await accounts.get('/events?test=true&event_type=verify_account_updated'))).toEqual([
      accountEventId,
    ]);
  });

  it('repeating one readable kind as many times as there are kinds lists only that kind (the filter is a set, not a count)', async () => {
    const persons = await client(['read:persons']);
    const repeated = `/events?test=true&${Array.from({ length: ORUM_EVENT_TYPES.length }, () => 'event_type=person_created').join('&')}`;
    const listed = await persons.get(repeated);
    expect(listed.status).toBe(200);
    expect(eventIds(listed)).toEqual([personEventId]);
  });

  it('the cursors of a list that repeats one readable kind lead only to that kind, page after page', async () => {
    const persons = await client(['read:persons']);
    const repeated = Array.from({ length: ORUM_EVENT_TYPES.length }, () => 'event_type=person_created').join('&');
    const seen: string[] = [];
    let target: string | undefined = `/events?test=true&size=1&${repeated}`;
    for (let page = 0; target !== undefined && page < 5; page += 1) {
      const answer: ApiResponse<{ events: { event_id: string }[] }> = await persons.get(target);
      expect(answer.status).toBe(200);
      seen.push(...eventIds(answer));
      target = /^<([^>]+)>/.exec(answer.headers.link ?? '')?.[1];
    }
    expect(seen).toEqual([personEventId]);
  });

  it('a token with both read scopes reads every event, as before', async () => {
    const both = await client(['read:persons', 'read:verify-accounts']);
    expect(eventIds(await both.get('/events?test=true')).sort()).toEqual([personEventId, accountEventId].sort());
  });
});

describe('event log scopes of test-only kinds', () => {
  it('a test event of a kind no area emits (business_created) is read with invoke:webhook, the scope that sent it; person_unverified with read:persons', async () => {
    const tenant = 'tenant-scopes-test-only';
    const of = async (scopes?: string[]) => api(env.runtime, await env.runtime.mintToken(tenant, scopes));
    const all = await of();
    for (const event_type of ['business_created', 'person_unverified']) {
      expect((await all.post('/webhooks/invoke', { event_type })).status).toBe(201);
    }
    const listed = (await all.get('/events?test=true')).body.events as { event_id: string; event_type: string }[];
    const idOf = (type: string) => listed.find((e) => e.event_type === type)?.event_id as string;

    const invoker = await of(['invoke:webhook']);
    expect(eventIds(await invoker.get('/events?test=true'))).toEqual([idOf('business_created')]);
    expect((await invoker.get(`/events/${idOf('business_created')}`)).status).toBe(200);
    expect((await invoker.get(`/events/${idOf('person_unverified')}`)).body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { required_scopes: ['read:persons'] },
    });

    const repeated = `/events?test=true&${Array.from({ length: ORUM_EVENT_TYPES.length }, () => 'event_type=business_created').join('&')}`;
    expect(eventIds(await invoker.get(repeated))).toEqual([idOf('business_created')]);

    const persons = await of(['read:persons']);
    expect(eventIds(await persons.get('/events?test=true'))).toEqual([idOf('person_unverified')]);
    expect((await persons.get(`/events/${idOf('business_created')}`)).body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { required_scopes: ['invoke:webhook'] },
    });
  });
});
