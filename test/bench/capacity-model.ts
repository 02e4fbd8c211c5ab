import type { DynamoCall } from './metering';
import type { PartitionWrites } from './partition-writes';
import type { CapacityFigures } from './results';
import { round } from './stats';
import { textTable } from './text-table';

/**
 * The per-tenant ceiling of verifications a second, from the write units a sustained run
 * put on each partition (test/bench/partition-writes.ts): a partition takes at most 1,000
 * write units a second, so one that takes `w` units per verification caps the tenant at
 * 1,000 / `w` verifications a second, and the busiest partition sets the ceiling. Reads
 * (3,000 read units a second per partition) are not per verification: lists are read as
 * partners page, so they are left to the method in docs/performance.md#capacity-model.
 */
export const PARTITION_LIMITS = { writeUnitsPerSecond: 1_000, readUnitsPerSecond: 3_000 } as const;

/** How many partition classes the report shows. */
const TOP = 5;

export function capacityModel(
  writes: PartitionWrites,
  calls: readonly DynamoCall[],
  run: { readonly verifications: number; readonly tenant: string; readonly shards: number },
): CapacityFigures {
  const classes = new Map<string, { partitions: number; busiest: number; entities: Set<string> }>();
  for (const { partition, units, entities } of writes.units.values()) {
    const name = `${partition.index} ${partitionPattern(partition.key, run.tenant)}`;
    const entry = classes.get(name) ?? { partitions: 0, busiest: 0, entities: new Set<string>() };
    entry.partitions++;
    entry.busiest = Math.max(entry.busiest, units);
    for (const entity of entities) entry.entities.add(entity);
    classes.set(name, entry);
  }
  const ranked = [...classes]
    .map(([partition, entry]) => {
      const perVerification = entry.busiest / run.verifications;
      return {
        partition,
        partitions: entry.partitions,
        entities: [...entry.entities].sort().join(', '),
        wru_per_verification: round(perVerification, 3),
        ceiling_verifications_per_s: Math.round(PARTITION_LIMITS.writeUnitsPerSecond / perVerification),
      };
    })
    .sort((a, b) => b.wru_per_verification - a.wru_per_verification);
  const metered: Record<string, number> = {};
  for (const call of calls) {
    for (const [index, units] of Object.entries(call.byIndex)) {
      if (call.writeUnits > 0) metered[index] = (metered[index] ?? 0) + units;
    }
  }
  const per = (units: number) => round(units / run.verifications, 2);
  const indexes = [...new Set([...Object.keys(metered), ...writes.byIndex.keys()])].sort();
  const limiting = ranked[0];
  return {
    tenant_shards: run.shards,
    verifications: run.verifications,
    tenant_ceiling_verifications_per_s: limiting?.ceiling_verifications_per_s ?? 0,
    limiting_partition: limiting?.partition ?? '',
    top_partitions: ranked.slice(0, TOP),
    wru_by_index: Object.fromEntries(
      indexes.map((index) => [
        index,
        { attributed: per(writes.byIndex.get(index) ?? 0), consumed: per(metered[index] ?? 0) },
      ]),
    ),
  };
}

/**
 * A partition key as a class: the tenant, ids, digests, times and numbers (a shard) as
 * placeholders, so `T#acme#VA#pending#3` reads `T#<tenant>#VA#pending#<n>`.
 */
export function partitionPattern(key: string, tenant: string): string {
  return key
    .split(tenant)
    .join('<tenant>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?/g, '<time>')
    .replace(/\b[0-9a-f]{16,}\b/gi, '<digest>')
    .replace(/(?<=#)\d+(?=#|$)/g, '<n>');
}

export function describeCapacity(figures: CapacityFigures): string[] {
  const checks = Object.entries(figures.wru_by_index)
    .map(([index, { attributed, consumed }]) => `${index} ${attributed}/${consumed}`)
    .join(', ');
  return [
    `write units per partition, ${figures.verifications} verifications of a tenant with ${figures.tenant_shards} list shard(s); ` +
      `ceiling = ${PARTITION_LIMITS.writeUnitsPerSecond.toLocaleString('en')} WCU/s ÷ the busiest partition's WRU per verification:`,
    ...textTable(
      ['partition (class)', 'partitions', 'entities written', 'WRU/verification (busiest)', 'ceiling verifications/s'],
      figures.top_partitions.map((row) => [
        row.partition,
        row.partitions,
        row.entities,
        row.wru_per_verification,
        row.ceiling_verifications_per_s,
      ]),
    ),
    `tenant ceiling (${figures.tenant_shards} shard(s)): ${figures.tenant_ceiling_verifications_per_s} verifications/s, set by ${figures.limiting_partition}`,
    `cross-check, WRU per verification attributed from the stream / consumed as DynamoDB reported it: ${checks}`,
  ];
}
