import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allShards, listShardCount, listShardOf, shardOf } from '#shared/db/shards';

afterEach(() => vi.unstubAllEnvs());

describe('write shards', () => {
  it('place an id in the same shard in every process (a fixed hash, not a random choice)', () => {
    expect(shardOf('6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f', 8)).toBe(shardOf('6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f', 8));
    expect(shardOf('6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f', 8)).toBe(1);
    expect(shardOf('anything', 1)).toBe(0);
  });

  it('spread ids evenly: 8,000 random ids over 8 shards, each within 15 % of 1,000', () => {
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 8000; i++) counts[shardOf(randomUUID(), 8)]++;
    for (const count of counts) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  it('are read as every shard 0…n-1, so shard 0 is read at every count', () => {
    expect(allShards(1)).toEqual([0]);
    expect(allShards(4)).toEqual([0, 1, 2, 3]);
  });

  it('come per tenant from TENANT_LIST_SHARDS; a tenant not named has one', () => {
    vi.stubEnv('TENANT_LIST_SHARDS', JSON.stringify({ acme: 8 }));
    expect(listShardCount('acme')).toBe(8);
    expect(listShardCount('globex')).toBe(1);
    expect(listShardOf('globex', randomUUID())).toBe(0);
    vi.stubEnv('TENANT_LIST_SHARDS', '');
    expect(listShardCount('acme')).toBe(1);
  });

  it.each(['{"acme": 0}', '{"acme": 33}', '{"acme": "8"}', '[8]', 'acme=8'])(
    'refuse a malformed TENANT_LIST_SHARDS (%s) instead of reading fewer shards than were written',
    (value) => {
      vi.stubEnv('TENANT_LIST_SHARDS', value);
      expect(() => listShardCount('acme')).toThrow(/TENANT_LIST_SHARDS must be a JSON object/);
    },
  );
});
