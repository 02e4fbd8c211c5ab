import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_STORED_ATTEMPTS, SLOT_TRIES } from '#domain/attempt-slots';
import { type DeliveryAttempt, storedEvents } from '#shared/db/stored-events/index';
import { createTestTable } from '#test/integration/harness';

/** The delivery attempts kept beside an event, on DynamoDB Local (docs/data-model.md, pattern 18). */
const TENANT = 'tenant-attempt-slots';
const EXPIRES = Math.ceil(Date.now() / 1000) + 86_400;
let clock = Date.parse('2026-01-16T15:00:00.000Z');

// Budgets follow from the requests each test sends (docs/testing.md#on-a-busy-machine): they
// say when a test gives up, never how fast DynamoDB Local must be. Measured on this 2-core
// machine: one request after another 12 ms idle and 29 ms with both cores busy; many at once
// 2.7 ms a put idle, and over 21 ms in a full `npm test` at load 8–10, where the blind writers'
// 1,440 puts outran a flat 30 s.
const MS_PER_SEQUENTIAL_REQUEST = 150;
const MS_PER_CONCURRENT_PUT = 60;
/** More writers than the cap, so the cap is what holds them. */
const BLIND_WRITERS = MAX_STORED_ATTEMPTS + 20;

beforeAll(async () => {
  await createTestTable();
});

async function storedEvent(): Promise<string> {
  const eventId = crypto.randomUUID();
  const envelope = { event_id: eventId, event_type: 'person_created', created_at: new Date(clock).toISOString() };
  expect(await storedEvents().store(TENANT, { ...envelope, event_data: { person: {} } })).toBe(true);
  return eventId;
}

function attempt(configuration: number, n: number): DeliveryAttempt {
  clock += 1000;
  return {
    at: new Date(clock).toISOString(),
    url: 'https://hooks.example.com/orum',
    configuration_id: `00000000-0000-4000-8000-${String(configuration).padStart(12, '0')}`,
    attempt: n,
    status_code: 503,
    latency_ms: 12,
  };
}

const kept = async (eventId: string) => (await storedEvents().withAttempts(TENANT, eventId))?.attempts ?? [];

describe('attempts kept per event', () => {
  it(
    'keeps the newest 100 when attempts are recorded one after another',
    async () => {
      const eventId = await storedEvent();
      const made: DeliveryAttempt[] = [];
      for (let i = 0; i < 130; i++) {
        const next = attempt(i % 3, 1 + Math.floor(i / 3));
        made.push(next);
        expect(await storedEvents().recordAttempt(TENANT, eventId, next, EXPIRES, await kept(eventId))).toBe(true);
      }
      const stored = await kept(eventId);
      expect(stored).toHaveLength(MAX_STORED_ATTEMPTS);
      expect(stored.map((a) => a.at)).toEqual(made.slice(-MAX_STORED_ATTEMPTS).map((a) => a.at));
    },
    /* a read and a put per attempt */ 130 * 2 * MS_PER_SEQUENTIAL_REQUEST,
  );

  it(
    'writers that saw the same attempts at the same moment each find a slot, and never pass the cap',
    async () => {
      const eventId = await storedEvent();
      for (let i = 0; i < 95; i++)
        await storedEvents().recordAttempt(TENANT, eventId, attempt(0, i + 1), EXPIRES, await kept(eventId));
      const seen = await kept(eventId);
      const concurrent = Array.from({ length: 16 }, (_, i) => attempt(i + 1, 1));
      const recorded = await Promise.all(
        concurrent.map((a) => storedEvents().recordAttempt(TENANT, eventId, a, EXPIRES, seen)),
      );
      expect(recorded.every(Boolean)).toBe(true);
      const stored = await kept(eventId);
      expect(stored).toHaveLength(MAX_STORED_ATTEMPTS);
      for (const a of concurrent) expect(stored.map((s) => s.at)).toContain(a.at);
    },
    95 * 2 * MS_PER_SEQUENTIAL_REQUEST + 16 * SLOT_TRIES * MS_PER_CONCURRENT_PUT,
  );

  it(
    'never passes the cap when writers record with no view of the event at all, and keeps exactly the attempts it said it kept',
    async () => {
      const eventId = await storedEvent();
      const made = Array.from({ length: BLIND_WRITERS }, (_, i) => attempt(i, 1));
      const recorded = await Promise.all(made.map((a) => storedEvents().recordAttempt(TENANT, eventId, a, EXPIRES)));
      const stored = await kept(eventId);
      expect(stored.length).toBeLessThanOrEqual(MAX_STORED_ATTEMPTS);
      // Every slot taken by a conditional write: no writer's attempt overwrote another's unseen.
      expect(stored.map((a) => a.at).sort()).toEqual(
        made
          .filter((_, i) => recorded[i])
          .map((a) => a.at)
          .sort(),
      );
    },
    /* at most SLOT_TRIES conditional puts a writer */ BLIND_WRITERS * SLOT_TRIES * MS_PER_CONCURRENT_PUT,
  );
});

describe('delivery claims (docs/data-model.md, delivery_claim)', () => {
  const at = (ms: number) => new Date(Date.parse('2026-01-16T15:00:00.000Z') + ms);
  const of = { configuration_id: '00000000-0000-4000-8000-000000000001', attempt: 1 };

  it('lets one holder send an attempt: not a copy while its lease runs, the holder again, a copy once it lapsed', async () => {
    const eventId = await storedEvent();
    const claim = (holder: string, now: number) =>
      storedEvents().claimAttempt(TENANT, eventId, of, holder, at(now), at(now + 60_000));

    expect(await claim('m-1', 0)).toBe(true);
    expect(await claim('m-copy', 1_000)).toBe(false);
    expect(await claim('m-1', 2_000)).toBe(true); // the same message, received again
    expect(await claim('m-redriven', 62_001)).toBe(true); // m-1's lease (from 2 s) lapsed at 62 s
    expect(await claim('m-1', 63_000)).toBe(false);
  });

  it('keeps the claims of other attempts, configurations and redeliveries apart, and out of the event’s attempts', async () => {
    const eventId = await storedEvent();
    const claim = (attempt: typeof of & { redelivery?: string }) =>
      storedEvents().claimAttempt(TENANT, eventId, attempt, 'm-1', at(0), at(60_000));

    expect(await claim(of)).toBe(true);
    const others = [
      { ...of, attempt: 2 },
      { ...of, configuration_id: '00000000-0000-4000-8000-000000000002' },
      { ...of, redelivery: '0f1e2d3c-4b5a-4968-8776-655443322110' },
    ];
    for (const other of others) {
      expect(await storedEvents().claimAttempt(TENANT, eventId, other, 'm-other', at(1), at(60_001))).toBe(true);
    }
    expect((await storedEvents().withAttempts(TENANT, eventId))?.attempts).toEqual([]);
  });
});
