import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OPERATORS } from '#lib/local/operators';
import { SCOPES } from '#shared/scopes';
import { api, OPERATOR } from '../harness';
import { personBody } from '../persons/support';
import { useScreeningRuntime } from '../screening/support';

/**
 * Hits to review (docs/api.md#hits-to-review), through the local runtime: a person screened
 * as a sandbox sanctions entry is rejected with a recorded hit; only an operator (a client
 * its alias record marks so, holding `review:screening`) lists and decides it, never a
 * partner's client, whatever scopes it holds; clearing it as a false positive makes the
 * person verified, and the unchanged person does not flag again, while a changed name
 * does; a confirmation keeps the person as it is; who decided and when is kept.
 */
const TENANT = 'tenant-hits-to-review';
const { env } = useScreeningRuntime(TENANT);
let operator: ReturnType<typeof api>;

beforeAll(async () => {
  operator = api(env.runtime, await env.runtime.mintToken(OPERATOR, ['review:screening']));
});

async function createdAndIdentified(over: Record<string, unknown>) {
  const created = await env.call.post('/persons', personBody(over));
  expect(created.status).toBe(200);
  await env.runtime.settle();
  return (await env.call.get(`/persons/${created.body.person.id}`)).body.person;
}

const reasonsOf = (person: { status_reasons?: { reason_code: string }[] }) =>
  (person.status_reasons ?? []).map((reason) => reason.reason_code);

async function hitsOf(personId: string) {
  const answer = await operator.get(`/screening/hits?tenant=${TENANT}&person_id=${personId}`);
  expect(answer.status).toBe(200);
  return answer.body.screening_hits;
}

describe('hits to review', () => {
  let sandy: { id: string };
  let hitId: string;

  it('records the hit of a person screened as a sanctions entry, who is rejected as Orum’s contract says', async () => {
    sandy = await createdAndIdentified({ first_name: 'Sandy', last_name: 'Sanctioned' });
    expect(reasonsOf(sandy as never)).toEqual(['matched_watchlist']);
    expect((sandy as unknown as { status: string }).status).toBe('rejected');

    const hits = await hitsOf(sandy.id);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      status: 'open',
      tenant: TENANT,
      person_id: sandy.id,
      screened: { first_name: 'Sandy', last_name: 'Sanctioned', date_of_birth: '1990-04-12' },
      list: 'sanctions',
      source: 'SDN',
      entry_id: 'SDN-90001',
      listed_name: 'SANCTIONED, Sandy',
      matched_name: 'SANCTIONED, Sandy',
      matched_kind: 'primary',
      score: 100,
      date_of_birth_agreement: 'unknown',
      lists_version: expect.any(Number),
    });
    expect(hits[0].decision).toBeUndefined();
    hitId = hits[0].id;
  });

  it('lists it among every tenant’s open hits for an operator, newest first, page by page', async () => {
    const alex = await createdAndIdentified({ first_name: 'Alex', last_name: 'Alertlist' });
    expect(reasonsOf(alex)).toEqual(['matched_alertlist']);
    const first = await operator.get('/screening/hits?size=1');
    expect(first.status).toBe(200);
    expect(first.body.screening_hits.map((hit: { person_id: string }) => hit.person_id)).toEqual([alex.id]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
    expect(next).toMatch(/^\/screening\/hits\?cursor=/);
    const second = await operator.get(next as string);
    expect(second.body.screening_hits.map((hit: { id: string }) => hit.id)).toEqual([hitId]);
  });

  it('serves each of the local runtime’s operators, the console’s too (lib/local/operators.ts)', async () => {
    for (const clientId of LOCAL_OPERATORS) {
      const local = api(env.runtime, await env.runtime.mintToken(clientId, ['review:screening']));
      const answer = await local.get(`/screening/hits?tenant=${TENANT}&person_id=${sandy.id}`);
      expect({ clientId, status: answer.status, hits: answer.body.screening_hits?.length }).toEqual({
        clientId,
        status: 200,
        hits: 1,
      });
    }
  });

  it('refuses a partner’s token, whatever scopes it holds: 403 from the gateway', async () => {
    expect((await env.call.get('/screening/hits')).status).toBe(403);
    expect((await env.call.post(`/screening/hits/${hitId}/decision`, { decision: 'false_positive' })).status).toBe(403);
  });

  it('refuses a partner’s client even when its token holds review:screening: 403 not_an_operator, the hit untouched', async () => {
    const partner = api(env.runtime, await env.runtime.mintToken(TENANT, [...SCOPES, 'review:screening']));

    const listed = await partner.get('/screening/hits');
    const personal = await partner.get(`/screening/hits?tenant=${TENANT}&person_id=${sandy.id}`);
    const decided = await partner.post(`/screening/hits/${hitId}/decision`, { decision: 'false_positive' });

    for (const answer of [listed, personal, decided]) {
      expect({ status: answer.status, code: answer.body.error_code }).toEqual({ status: 403, code: 'not_an_operator' });
    }
    const [hit] = await hitsOf(sandy.id);
    expect(hit).toMatchObject({ id: hitId, status: 'open' });
    expect(hit.decision).toBeUndefined();
    expect((await env.call.get(`/persons/${sandy.id}`)).body.person.status).toBe('rejected');
  });

  it('answers 404 unknown_id_screening_hit for an id that names no hit, or is no hit id', async () => {
    const another = Buffer.from(JSON.stringify([TENANT, sandy.id, 'alerts', 'ALERTS-alert-0001'])).toString(
      'base64url',
    );
    for (const id of [another, 'not-a-hit-id', Buffer.from('["a","b"]').toString('base64url')]) {
      const answer = await operator.post(`/screening/hits/${id}/decision`, { decision: 'confirmed' });
      expect({ status: answer.status, code: answer.body.error_code }).toEqual({
        status: 404,
        code: 'unknown_id_screening_hit',
      });
    }
  });

  it('clears a false positive: the person is verified (with its event), and who decided and when is kept', async () => {
    const answer = await operator.post(`/screening/hits/${hitId}/decision`, {
      decision: 'false_positive',
      note: 'Born in another country than the listed person.',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.screening_hit).toMatchObject({
      id: hitId,
      status: 'cleared',
      decision: {
        decision: 'false_positive',
        decided_by: OPERATOR,
        decided_at: expect.any(String),
        note: 'Born in another country than the listed person.',
      },
    });
    await env.runtime.settle();
    const person = (await env.call.get(`/persons/${sandy.id}`)).body.person;
    expect(person.status).toBe('verified');
    expect(person.status_reasons).toBeUndefined();
    const events = (await env.call.get('/events?event_type=person_verified')).body.events;
    expect(events.map((event: { event_data: { person: { id: string } } }) => event.event_data.person.id)).toContain(
      sandy.id,
    );
  });

  it('answers 409 screening_hit_decided to a second decision, naming the first', async () => {
    const answer = await operator.post(`/screening/hits/${hitId}/decision`, { decision: 'confirmed' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      error_code: 'screening_hit_decided',
      details: { status: 'cleared', decided_by: OPERATOR },
    });
  });

  // A verified person's SSN is deleted (docs/api.md#person-routes): identifying it again takes the SSN anew.
  const SSN = { social_security_number: '123-45-6789' };

  it('does not flag the unchanged person again when it is identified again (a new address)', async () => {
    const patched = await env.call.patch(`/persons/${sandy.id}`, {
      ...SSN,
      addresses: [
        { type: 'home', address1: '2 Elm Street', city: 'Springfield', state: 'IL', country: 'US', zip5: '62702' },
      ],
    });
    expect(patched.status).toBe(200);
    await env.runtime.settle();
    const person = (await env.call.get(`/persons/${sandy.id}`)).body.person;
    expect({ status: person.status, reasons: reasonsOf(person) }).toEqual({ status: 'verified', reasons: [] });
    expect((await hitsOf(sandy.id)).map((hit: { status: string }) => hit.status)).toEqual(['cleared']);
  });

  it('flags it again once the person’s name changed, the earlier decision kept; a confirmation keeps the person rejected', async () => {
    const patched = await env.call.patch(`/persons/${sandy.id}`, {
      ...SSN,
      first_name: 'Sandie',
      last_name: 'Sanctionne',
    });
    expect(patched.status).toBe(200);
    await env.runtime.settle();
    const person = (await env.call.get(`/persons/${sandy.id}`)).body.person;
    expect({ status: person.status, reasons: reasonsOf(person) }).toEqual({
      status: 'rejected',
      reasons: ['matched_watchlist'],
    });
    const [hit] = await hitsOf(sandy.id);
    expect(hit).toMatchObject({
      id: hitId,
      status: 'open',
      screened: { first_name: 'Sandie', last_name: 'Sanctionne' },
      earlier_decisions: [{ decision: 'false_positive', decided_by: OPERATOR }],
    });

    const confirmed = await operator.post(`/screening/hits/${hitId}/decision`, { decision: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.screening_hit).toMatchObject({
      status: 'confirmed',
      decision: { decision: 'confirmed', decided_by: OPERATOR },
    });
    await env.runtime.settle();
    expect((await env.call.get(`/persons/${sandy.id}`)).body.person.status).toBe('rejected');
    const open = (await operator.get('/screening/hits')).body.screening_hits.map((h: { id: string }) => h.id);
    expect(open).not.toContain(hitId);
    const decided = (await operator.get('/screening/hits?status=confirmed')).body.screening_hits;
    expect(decided.map((h: { id: string }) => h.id)).toContain(hitId);
  });
});
