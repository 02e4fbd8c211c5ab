import * as z from 'zod/mini';
import type { StreamBatchInfo } from '#lib/event-source-mapping/stream-batch-info';

// What Lambda sends to a table-stream mapping's on-failure destination for a batch it gave
// up on (the body of a message of the StreamRouter on-failure queue): who gave it up and
// which records, by shard and sequence range, never the records themselves.

/** The parts of an on-failure record a replay needs. */
export interface OnFailureRecord {
  /** The function the mapping invoked: the one to replay the batch to. */
  readonly functionArn: string;
  readonly condition?: string;
  readonly timestamp?: string;
  readonly batch: StreamBatchInfo;
}

const sequenceNumber = z.string().check(z.regex(/^\d+$/, 'a sequence number is digits'));
const batchInfo = z.object({
  shardId: z.string().check(z.minLength(1)),
  startSequenceNumber: sequenceNumber,
  endSequenceNumber: sequenceNumber,
  approximateArrivalOfFirstRecord: z.optional(z.string()),
  approximateArrivalOfLastRecord: z.optional(z.string()),
  batchSize: z.number().check(z.int(), z.positive()),
  streamArn: z.string().check(z.regex(/^arn:aws[\w-]*:dynamodb:[^:]+:\d+:table\/[^/]+\/stream\//)),
});
const record = z.object({
  requestContext: z.object({
    functionArn: z.string().check(z.regex(/^arn:aws[\w-]*:lambda:/)),
    condition: z.optional(z.string()),
  }),
  timestamp: z.optional(z.string()),
  DDBStreamBatchInfo: z.unknown(),
});

/** Reads an on-failure record, or throws one sentence saying what is wrong with it. */
export function parseOnFailureRecord(text: string): OnFailureRecord {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the on-failure record is not JSON: give the body of a message of the on-failure queue');
  }
  if (typeof json !== 'object' || json === null || !('DDBStreamBatchInfo' in json) || !json.DDBStreamBatchInfo) {
    throw new Error(
      'the on-failure record holds no DDBStreamBatchInfo: it is not what a table stream mapping sends to its on-failure destination',
    );
  }
  const parsed = record.safeParse(json);
  if (!parsed.success) throw new Error(`the on-failure record is not as Lambda writes it: ${problem(parsed.error)}`);
  const batch = batchInfo.safeParse(parsed.data.DDBStreamBatchInfo);
  if (!batch.success) {
    throw new Error(`the on-failure record's DDBStreamBatchInfo is not as Lambda writes it: ${problem(batch.error)}`);
  }
  const { requestContext, timestamp } = parsed.data;
  return {
    functionArn: requestContext.functionArn,
    ...(requestContext.condition !== undefined && { condition: requestContext.condition }),
    ...(timestamp !== undefined && { timestamp }),
    batch: batch.data,
  };
}

/** The function's name in its ARN (`arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]`). */
export const functionNameOf = (functionArn: string): string => functionArn.split(':')[6] ?? functionArn;

/** The region in an ARN (`arn:aws:<service>:<region>:…`). */
export const regionOf = (arn: string): string => arn.split(':')[3] ?? '';

/** The first issue, as `field: what is wrong`. */
function problem(error: z.core.$ZodError): string {
  const [issue] = error.issues;
  return issue ? `${issue.path.join('.') || 'the record'}: ${issue.message}` : 'unreadable';
}
