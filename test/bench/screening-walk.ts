import { randomUUID } from 'node:crypto';
import type { Person } from '#domain/person';
import type { ScreeningIndex } from '#domain/screening-index';
import type { ListedPerson } from '#domain/screening-match';
import { writeListChanges } from '#functions/screening/load-lists';
import { changedSanctions, type RescreenLists, rescreenEverywhere } from '#functions/screening/rescreen';
import { personItem } from '#shared/db/persons/item';
import { createLogger } from '#shared/logger';
import type { VariantPerson } from '#test/support/screening-variants';
import { startBenchService } from './bench-service';
import { dynamoCalls } from './call-recorder';
import type { BenchContext } from './context';
import { batchWrite } from './list-data';
import { round } from './stats';

// The re-screen's walk through DynamoDB Local (issue 28): verified persons of common US
// names written as the service stores them, then one list change (one listing put) and
// the daily re-screen (the whole lists) walked over every shard by the code the screening
// worker runs, with `ReturnConsumedCapacity` on every call. Per million persons the read
// units scale with the persons walked (the index's keys, then each person once), and the
// time with the persons scored.

/** Persons walked: enough for every shard to hold several pages. */
export const WALK_PERSONS = 4000;

export interface WalkFigures {
  readonly persons: number;
  /** One list change (one listing put) walked over every shard: ms, read units, and read units per million persons. */
  readonly change_ms: number;
  readonly change_rru: number;
  readonly change_rru_per_million: number;
  /** The daily re-screen against the whole lists: ms, and Lambda seconds per million persons at this machine's speed. */
  readonly daily_ms: number;
  readonly daily_seconds_per_million: number;
}

export async function measureWalk(
  context: BenchContext,
  listings: readonly ListedPerson[],
  whole: ScreeningIndex,
  names: readonly VariantPerson[],
): Promise<WalkFigures> {
  const service = await startBenchService({
    dynamoEndpoint: context.dynamoEndpoint,
    tableName: `bench-walk-${randomUUID()}`,
  });
  try {
    const at = '2026-01-15T10:00:00.000Z';
    const items = names.map((name, i) => {
      const person: Person = {
        id: randomUUID(),
        tenant: `bench-walk-${i % 5}`,
        customer_reference_id: `ref-${i}`,
        first_name: name.first_name,
        last_name: name.last_name,
        date_of_birth: name.date_of_birth,
        has_ssn: false,
        status: 'verified',
        created_at: at,
        updated_at: at,
        identification_attempts: 1,
        version: 2,
      };
      return { ...personItem(person), identity_rev: 1 };
    });
    await batchWrite(service.admin, service.tableName, items);
    context.log(`${items.length} verified persons written`);
    const logger = createLogger({ worker: 'bench-walk' });

    const listing = listings[0] as ListedPerson;
    await writeListChanges({ put: [listing] });
    const change = (await changedSanctions([listing])) as RescreenLists;
    service.recorder.consumedCapacity = true;
    service.recorder.start();
    let started = performance.now();
    await rescreenEverywhere(change, logger);
    const changeMs = performance.now() - started;
    const rru = dynamoCalls(service.recorder.stop()).reduce((sum, call) => sum + (call.capacity ?? 0), 0);
    service.recorder.consumedCapacity = false;

    started = performance.now();
    await rescreenEverywhere({ sanctions: whole, version: change.version }, logger);
    const dailyMs = performance.now() - started;
    return {
      persons: items.length,
      change_ms: round(changeMs),
      change_rru: round(rru, 1),
      change_rru_per_million: round((rru / items.length) * 1e6, 0),
      daily_ms: round(dailyMs),
      daily_seconds_per_million: round((dailyMs / 1000 / items.length) * 1e6, 0),
    };
  } finally {
    await service.close();
  }
}
