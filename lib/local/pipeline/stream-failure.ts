import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamBatchInfo } from '#lib/event-source-mapping/stream-batch-info';

// The local stream consumers' on-failure destination: what Lambda would send for a batch
// that exhausted its retries, kept in memory (LocalRuntime.streamFailures) with its records.

/** What Lambda sends to an on-failure destination (DDBStreamBatchInfo), plus the records themselves. */
export interface StreamFailure {
  readonly consumer: string;
  readonly condition: 'RetryAttemptsExhausted';
  /** Invocations of this batch, all failed. */
  readonly attempts: number;
  readonly error: string;
  readonly at: string;
  readonly batchInfo: StreamBatchInfo;
  /** Not in AWS's destination message (it names the range only); kept locally to inspect. */
  readonly records: readonly DynamoDBRecord[];
}

/** The failure of a batch of one shard that failed `attempts` times, the last with `error`. */
export function streamFailure(
  consumer: string,
  batch: { readonly shardId: string; readonly streamArn: string; readonly records: DynamoDBRecord[] },
  attempts: number,
  error: string,
): StreamFailure {
  const { shardId, streamArn, records } = batch;
  const first = records[0]?.dynamodb;
  const last = records.at(-1)?.dynamodb;
  const arrival = (seconds?: number) => (seconds === undefined ? undefined : new Date(seconds * 1000).toISOString());
  return {
    consumer,
    condition: 'RetryAttemptsExhausted',
    attempts,
    error,
    at: new Date().toISOString(),
    batchInfo: {
      shardId,
      startSequenceNumber: first?.SequenceNumber ?? '',
      endSequenceNumber: last?.SequenceNumber ?? '',
      approximateArrivalOfFirstRecord: arrival(first?.ApproximateCreationDateTime),
      approximateArrivalOfLastRecord: arrival(last?.ApproximateCreationDateTime),
      batchSize: records.length,
      streamArn,
    },
    records,
  };
}
