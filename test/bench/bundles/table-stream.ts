import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { type FilterPattern, passesFilters } from '#lib/event-source-mapping/stream-filter';
import { toLambdaRecord } from '#lib/event-source-mapping/stream-records';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import { STREAM_ROUTER, streamFilterPattern } from '#lib/service/index';

/**
 * Every change written to the table so far, as the stream router's event source mapping
 * would hand it over: in Lambda's record format, through the router's filters (the local
 * stream poller's code for both). Read from the start of every shard.
 */
export async function streamRouterRecords(endpoint: string, streamArn: string): Promise<DynamoDBRecord[]> {
  if (STREAM_ROUTER.source.kind !== 'table-stream') throw new Error('the stream router reads no table stream');
  const patterns = STREAM_ROUTER.source.filters.map(streamFilterPattern) as unknown as FilterPattern[];
  const client = new DynamoDBStreamsClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    const shards: string[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      shards.push(...(StreamDescription?.Shards ?? []).flatMap((shard) => (shard.ShardId ? [shard.ShardId] : [])));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);

    const records: DynamoDBRecord[] = [];
    for (const shard of shards) {
      let { ShardIterator: iterator } = await client.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      while (iterator) {
        const out = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const page = out.Records ?? [];
        for (const record of page) {
          const lambdaRecord = toLambdaRecord(record, { streamArn, region: LOCAL_REGION });
          if (passesFilters(patterns, lambdaRecord)) records.push(lambdaRecord);
        }
        // An open shard always hands out a next iterator; an empty page means it is read to its end for now.
        iterator = page.length > 0 ? out.NextShardIterator : undefined;
      }
    }
    return records;
  } finally {
    client.destroy();
  }
}
