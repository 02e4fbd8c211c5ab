import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { silentLog } from '#lib/local/log';
import { StreamCheckpoints } from '#lib/local/pipeline/stream-checkpoints';
import { type ShardState, StreamShards } from '#lib/local/pipeline/stream-shards';

/**
 * The checkpoint of a shard read in lanes (ParallelizationFactor): it moves only past
 * records done with none before them still pending, so a restart never skips a record a
 * slower lane has not finished.
 */
const record = (sequenceNumber: string): DynamoDBRecord => ({ dynamodb: { SequenceNumber: sequenceNumber } });

function shardWithLanes(): { shard: ShardState; shards: StreamShards; checkpoints: StreamCheckpoints } {
  const [r1, r2, r3, r4] = ['100', '200', '300', '400'].map(record) as DynamoDBRecord[];
  const shard: ShardState = {
    id: 'shard-1',
    lastRead: '450',
    pending: [r1, r2, r3, r4] as DynamoDBRecord[],
    lanes: [
      { pending: [r1, r3] as DynamoDBRecord[], failures: 0, retryAt: 0 },
      { pending: [r2, r4] as DynamoDBRecord[], failures: 0, retryAt: 0 },
    ],
    ended: false,
  };
  const checkpoints = new StreamCheckpoints(undefined, silentLog);
  const shards = new StreamShards('http://127.0.0.1:1', 'arn:stream', checkpoints, silentLog);
  return { shard, shards, checkpoints };
}

describe('stream shard checkpoints with several lanes', () => {
  it('holds the checkpoint before a record another lane has not finished', () => {
    const { shard, shards, checkpoints } = shardWithLanes();
    const [first, second] = shard.lanes;
    shards.done(shard, 2, second!); // 200 and 400, while 100 is still pending
    expect(checkpoints.get('shard-1')).toBeUndefined();
    shards.done(shard, 1, first!); // 100: now 100 and 200 are done, 300 is pending
    expect(checkpoints.get('shard-1')).toBe('200');
    expect(shard.pending.map((r) => r.dynamodb?.SequenceNumber)).toEqual(['300', '400']);
    shards.done(shard, 1, first!); // 300: everything read is done, past the filtered-out tail too
    expect(checkpoints.get('shard-1')).toBe('450');
    expect(shard.pending).toEqual([]);
    shards.destroy();
  });
});
