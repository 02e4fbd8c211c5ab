import { tenantListShards } from '#shared/config';

// Write sharding of the partitions one tenant writes on every verification (the list
// indexes' partitions, docs/data-model.md#write-sharding): an item's shard is a hash of its id,
// so writes spread evenly, and a list reads every shard and merges them in sort-key
// order. A tenant's shard count may only grow: shard 0 keeps its key at every count,
// and an item stays where it was written until its next index-key change, so a reader
// of shards 0…n-1 finds every item written while the count was ≤ n.

/** Most shards a tenant's list may have: a list page reads every one. */
export const MAX_LIST_SHARDS = 32;

/** The shard (0…count-1) of the item with this id: FNV-1a, stable across processes. */
export function shardOf(id: string, count: number): number {
  if (count <= 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

/** Every shard of a partition split `count` ways. */
export const allShards = (count: number): number[] => Array.from({ length: Math.max(1, count) }, (_, i) => i);

/** How many shards this tenant's list partitions have (deployment setting; 1 unless named). */
export const listShardCount = (tenant: string): number => tenantListShards()[tenant] ?? 1;

/** The list shard an item of this tenant is written to now. */
export const listShardOf = (tenant: string, id: string): number => shardOf(id, listShardCount(tenant));
