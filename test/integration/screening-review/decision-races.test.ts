import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HitRecord } from '#domain/screening-review';
import { CONSUMERS } from '#lib/service/index';
import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { ScreeningHitRepository } from '#shared/db/screening-hits/index';
import { setDependencies } from '#shared/dependencies';
import { api, OPERATOR } from '../harness';
import { useScreeningRuntime } from '../screening/support';

/**
 * A decision on a hit and any other write of the same person's hits, at once
 * (docs/api.md#hits-to-review): whichever lands second was decided on what the first
 * changed, so it is taken again on a fresh read, and the person ends as the hits say. Made
 * deterministic by holding one party right after it read the person's hits, until the other
 * has written (`HeldHitReads`), on DynamoDB Local.
 *
 * The pipeline's own re-screen of a list change (ScreeningWorker) is left out: it would
 * screen the same person against the same listing at a moment no test chooses. The
 * re-screen here is the one `POST /local/sanctions/entries` runs at once, the same code.
 */
const TENANT = 'tenant-decision-races';
const { env } = useScreeningRuntime(TENANT, {
  consumers: CONSUMERS.filter((consumer) => consumer.id !== 'ScreeningWorker'),
  // A held function waits for the other party: far from a busy machine's limit.
  functionTimeoutMs: 60_000,
  integrationTimeoutMs: 60_000,
});
let operator: ReturnType<typeof api>;
let hits: HeldHitReads;

/** A promise and its resolver. */
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * The hits repository with a hold on one person's next `count` reads of its hits: each is
 * made, then waits until `release()`; `allRead` resolves once all `count` are made. Later
 * reads (a decision or a screening taken again after a lost race) pass at once.
 */
class HeldHitReads extends ScreeningHitRepository {
  private held?: { personId: string; count: number; reads: number; allRead: () => void; released: Promise<void> };

  hold(personId: string, count: number) {
    const allRead = deferred();
    const released = deferred();
    this.held = { personId, count, reads: 0, allRead: allRead.resolve, released: released.promise };
    return { allRead: allRead.promise, release: released.resolve };
  }

  override async ofPerson(tenant: string, personId: string): Promise<HitRecord[]> {
    const recorded = await super.ofPerson(tenant, personId);
    const held = this.held;
    if (!held || held.personId !== personId || held.reads >= held.count) return recorded;
    held.reads++;
    if (held.reads === held.count) held.allRead();
    await held.released;
    return recorded;
  }
}

beforeAll(async () => {
  operator = api(env.runtime, await env.runtime.mintToken(OPERATOR, ['review:screening']));
  hits = new HeldHitReads(documentClient(), tableName());
  setDependencies({ screeningHits: hits });
});
afterEach(() => env.runtime.settle());

/** A verified person of the test's tenant, named so no list holds them. */
async function verifiedPerson(first_name: string, last_name: string): Promise<string> {
  const created = await env.call.post('/persons', {
    customer_reference_id: `ref-${first_name}-${last_name}`,
    first_name,
    last_name,
    date_of_birth: '1990-04-12',
    social_security_number: '123-45-6789',
    addresses: [
      { type: 'home', address1: '1 Main Street', city: 'Springfield', state: 'IL', country: 'US', zip5: '62701' },
    ],
  });
  expect(created.status).toBe(200);
  await env.runtime.settle();
  const person = (await env.call.get(`/persons/${created.body.person.id}`)).body.person;
  expect(person.status).toBe('verified');
  return person.id;
}

/** Adds a sanctions listing and re-screens everyone against it at once (the local route). */
const listed = (name: string) => env.call.post('/local/sanctions/entries', { name });

/** The person's hits as an operator lists them, by listed name. */
async function hitsOf(personId: string): Promise<Map<string, { id: string; status: string }>> {
  const answer = await operator.get(`/screening/hits?tenant=${TENANT}&person_id=${personId}`);
  expect(answer.status).toBe(200);
  return new Map(answer.body.screening_hits.map((hit: { listed_name: string }) => [hit.listed_name, hit]));
}

async function personOf(id: string) {
  const person = (await env.call.get(`/persons/${id}`)).body.person;
  return {
    status: person.status,
    reasons: (person.status_reasons ?? []).map((r: { reason_code: string }) => r.reason_code),
  };
}

const clear = (hitId: string) => operator.post(`/screening/hits/${hitId}/decision`, { decision: 'false_positive' });

describe('a decision racing a re-screen that records another hit of the person', () => {
  it('decided on what it read before the re-screen wrote: the person stays restricted, the new hit open', async () => {
    const id = await verifiedPerson('Oswin', 'Tellerbrook');
    expect((await listed('Oswin Tellerbrook')).status).toBe(201);
    expect(await personOf(id)).toEqual({ status: 'restricted', reasons: ['matched_watchlist'] });
    const first = (await hitsOf(id)).get('Oswin Tellerbrook') as { id: string };

    // The operator clears the first hit; it has read the person's hits (only that one) and waits.
    const hold = hits.hold(id, 1);
    const decision = clear(first.id);
    await hold.allRead;
    // Meanwhile the lists gain a second listing of the same person, and the re-screen records it.
    expect((await listed('TELLERBROOK, Oswin')).status).toBe(201);
    hold.release();

    const decided = await decision;
    expect(decided.status).toBe(200);
    expect(decided.body.screening_hit.status).toBe('cleared');
    const recorded = await hitsOf(id);
    expect(recorded.get('TELLERBROOK, Oswin')?.status).toBe('open');
    expect(await personOf(id)).toEqual({ status: 'restricted', reasons: ['matched_watchlist'] });
  });

  it('a re-screen that read the hits before the decision landed: the person it verified is restricted again by the new hit', async () => {
    const id = await verifiedPerson('Marigold', 'Quenneville');
    expect((await listed('Marigold Quenneville')).status).toBe(201);
    const first = (await hitsOf(id)).get('Marigold Quenneville') as { id: string };

    // The lists gain a second listing: its re-screen has read the person (restricted) and its hits, and waits.
    const hold = hits.hold(id, 1);
    const rescreen = listed('QUENNEVILLE, Marigold');
    await hold.allRead;
    // Meanwhile the operator clears the only hit recorded: the person is verified.
    const decided = await clear(first.id);
    expect(decided.status).toBe(200);
    expect(await personOf(id)).toEqual({ status: 'verified', reasons: [] });
    hold.release();

    expect((await rescreen).status).toBe(201);
    const recorded = await hitsOf(id);
    expect(recorded.get('Marigold Quenneville')?.status).toBe('cleared');
    expect(recorded.get('QUENNEVILLE, Marigold')?.status).toBe('open');
    expect(await personOf(id)).toEqual({ status: 'restricted', reasons: ['matched_watchlist'] });
  });
});

describe('two decisions at once on the two hits that hold a person', () => {
  it('clearing both verifies the person, whichever lands first', async () => {
    const id = await verifiedPerson('Thaddeus', 'Wrenfield');
    expect((await listed('Thaddeus Wrenfield')).status).toBe(201);
    expect((await listed('WRENFIELD, Thaddeus')).status).toBe(201);
    const recorded = await hitsOf(id);
    const both = [...recorded.values()];
    expect(both.map((hit) => hit.status)).toEqual(['open', 'open']);
    expect(await personOf(id)).toEqual({ status: 'restricted', reasons: ['matched_watchlist'] });

    // Each operator reads the person's hits, both open, before either writes.
    const hold = hits.hold(id, 2);
    const decisions = Promise.all(both.map((hit) => clear(hit.id)));
    await hold.allRead;
    hold.release();

    const answers = await decisions;
    expect(answers.map((answer) => [answer.status, answer.body.screening_hit?.status])).toEqual([
      [200, 'cleared'],
      [200, 'cleared'],
    ]);
    expect(await personOf(id)).toEqual({ status: 'verified', reasons: [] });
  });
});
