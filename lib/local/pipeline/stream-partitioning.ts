import { createHash } from 'node:crypto';
import type { TableDescription } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

// Lambda's ParallelizationFactor, played locally: a stream consumer's shards are split into
// lanes by partition key; StreamShards keeps the lanes, StreamPoller runs a batch per lane.

/** How many lanes each shard has, and which one a record goes to (the same for every record of a partition key). */
export interface StreamPartitioning {
  readonly lanes: number;
  laneOf(record: DynamoDBRecord): number;
}

/**
 * Lambda's ParallelizationFactor: the shard's records go to `lanes` concurrent batches by
 * their partition key (hashed), so records of one key keep their stream order.
 */
export function partitionedBy(table: TableDescription, lanes: number): StreamPartitioning {
  const key = table.KeySchema?.find((element) => element.KeyType === 'HASH')?.AttributeName;
  if (lanes === 1) return { lanes, laneOf: () => 0 };
  if (!key) throw new Error(`table ${table.TableName} has no partition key to split its stream by`);
  return {
    lanes,
    laneOf: (record) => {
      const value = JSON.stringify(record.dynamodb?.Keys?.[key] ?? null);
      return createHash('md5').update(value).digest().readUInt32BE(0) % lanes;
    },
  };
}
