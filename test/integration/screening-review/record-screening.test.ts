import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { statusReason } from '#domain/person';
import type { Hit } from '#domain/screening-match';
import { planScreening, storeScreening } from '#functions/screening-review/record-screening';
import { documentClient } from '#shared/db/document-client';
import { persons, type StoredPerson } from '#shared/db/persons/index';
import { HITS_PER_WRITE, screeningHits } from '#shared/db/screening-hits/index';
import { ConflictError } from '#shared/errors';
import { actingFor } from '#shared/tenant-scope';
import { storedPersonItem } from '#test/support/records';
import { createTestTable } from '../harness';

/**
 * Recording a screening's hits with the person's outcome (docs/data-model.md, pattern 24),
 * on the real engine: the hits and the person's update in one transaction that moves the
 * person's hits revision, on condition that neither changed since they were read; more hits
 * than one transaction holds in several, the outcome with the last.
 */
const TENANT = 'tenant-record-screening';
const AT = new Date('2026-03-02T10:00:00.000Z');
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});

const hitOn = (n: number): Hit => ({
  list: 'sanctions',
  source: 'SDN',
  entryId: `SDN-${n}`,
  listedName: 'DOE, Jane',
  matchedName: 'DOE, Jane',
  matchedKind: 'primary',
  score: 100,
  dateOfBirth: 'unknown',
  listingRevision: 'r1',
});

/** A verified person of the tenant, stored, and as read for a change. */
async function verifiedPerson(): Promise<StoredPerson> {
  const id = randomUUID();
  await documentClient().send(
    new PutCommand({ TableName: tableName, Item: storedPersonItem(TENANT, id, { status: 'verified' }) }),
  );
  return (await persons().getStored(TENANT, id)) as StoredPerson;
}

const restriction = { set: { status: 'restricted' as const, status_reasons: [statusReason('matched_watchlist')] } };

describe('storeScreening', () => {
  it('stores the hits and the person’s outcome together, moving the hits revision once', () =>
    actingFor(TENANT, async () => {
      const stored = await verifiedPerson();
      const planned = await planScreening(stored, [hitOn(1), hitOn(2)], 7, AT);
      await storeScreening(stored, planned, restriction, AT);

      const after = (await persons().getStored(TENANT, stored.person.id)) as StoredPerson;
      expect({ status: after.person.status, version: after.person.version, hitsRev: after.hitsRev }).toEqual({
        status: 'restricted',
        version: 2,
        hitsRev: 1,
      });
      const recorded = await screeningHits().ofPerson(TENANT, stored.person.id);
      expect(recorded.map((hit) => [hit.hit.entryId, hit.status, hit.listsVersion])).toEqual([
        ['SDN-1', 'open', 7],
        ['SDN-2', 'open', 7],
      ]);
    }));

  it('writes more hits than one transaction holds in several, the outcome with the last', () =>
    actingFor(TENANT, async () => {
      const stored = await verifiedPerson();
      const many = Array.from({ length: HITS_PER_WRITE + 2 }, (_, n) => hitOn(n));
      await storeScreening(stored, await planScreening(stored, many, 7, AT), restriction, AT);

      const after = (await persons().getStored(TENANT, stored.person.id)) as StoredPerson;
      expect({ status: after.person.status, hitsRev: after.hitsRev }).toEqual({ status: 'restricted', hitsRev: 2 });
      expect(await screeningHits().ofPerson(TENANT, stored.person.id)).toHaveLength(HITS_PER_WRITE + 2);
    }));

  it('refuses hits planned before another write of the person’s hits: concurrent_update, nothing written', () =>
    actingFor(TENANT, async () => {
      const stored = await verifiedPerson();
      const stale = await planScreening(stored, [hitOn(2)], 7, AT);
      // Another screening records a hit meanwhile, without changing the person's status.
      await storeScreening(stored, await planScreening(stored, [hitOn(1)], 7, AT), undefined, AT);

      const error = await storeScreening(stored, stale, restriction, AT).catch((e) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.code).toBe('concurrent_update');
      const after = (await persons().getStored(TENANT, stored.person.id)) as StoredPerson;
      expect({ status: after.person.status, version: after.person.version, hitsRev: after.hitsRev }).toEqual({
        status: 'verified',
        version: 1,
        hitsRev: 1,
      });
      expect((await screeningHits().ofPerson(TENANT, stored.person.id)).map((hit) => hit.hit.entryId)).toEqual([
        'SDN-1',
      ]);
    }));
});
