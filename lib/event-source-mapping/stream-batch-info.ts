/**
 * What Lambda's on-failure record says of a table-stream batch its mapping gave up on
 * (`DDBStreamBatchInfo`): where the batch lies in the stream, never its records. The local
 * stream pollers write it as Lambda does (lib/local/pipeline/stream-failure.ts), and a
 * replay reads the batch again from it (lib/stream-replay/).
 */
export interface StreamBatchInfo {
  readonly shardId: string;
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
  readonly approximateArrivalOfFirstRecord?: string;
  readonly approximateArrivalOfLastRecord?: string;
  readonly batchSize: number;
  readonly streamArn: string;
}
