import { readFileSync } from 'node:fs';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { commandLine, usageError } from '#lib/command-line';
import { deployedInvoke, deployedMapping } from '#lib/stream-replay/deployed-mapping';
import { describeBatch, replayOnFailureQueue } from '#lib/stream-replay/on-failure-queue';
import {
  functionNameOf,
  type OnFailureRecord,
  parseOnFailureRecord,
  regionOf,
} from '#lib/stream-replay/on-failure-record';
import { type ReplayResult, readBatch, replayBatch } from '#lib/stream-replay/replay-batch';

// `npm run stream:replay -- --record <file> | --queue-url <url> [--dry-run]`: replays a
// table-stream batch the deployed stream router gave up on, from Lambda's on-failure
// record (docs/operations.md#replaying-a-stream-batch-given-up): the batch's shard and
// sequence range are read again from the stream (kept 24 h) and the router is invoked with
// exactly those records, as its event source mapping invoked it. The credentials and
// endpoints are the AWS SDK's usual ones; the regions come from the record's ARNs.

const USAGE = `usage: npm run stream:replay -- --record <file> | --queue-url <url> [--dry-run]
  Replays a table stream batch the stream router gave up on: reads its shard and sequence range from the
  stream (kept 24 h) and invokes the router with exactly those records (docs/operations.md).
  --record <file>    one on-failure record, as JSON: the body of a message of the router's on-failure queue
  --queue-url <url>  the on-failure queue: each message is replayed, and deleted once replayed in full
  --dry-run          read the records and list them; invoke nothing, delete nothing`;

const values = commandLine(USAGE, {
  record: { type: 'string' },
  'queue-url': { type: 'string' },
  'dry-run': { type: 'boolean' },
});
if ((values.record === undefined) === (values['queue-url'] === undefined)) {
  usageError(USAGE, 'name either --record or --queue-url');
}
const dryRun = values['dry-run'] === true;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Reads, and unless a dry run replays, the batch the record names, on the clients of the record's regions. */
async function replay(record: OnFailureRecord): Promise<ReplayResult> {
  const region = regionOf(record.batch.streamArn);
  const lambda = new LambdaClient({ region: regionOf(record.functionArn) });
  const streams = new DynamoDBStreamsClient({ region });
  try {
    const mapping = await deployedMapping(lambda, record.functionArn, record.batch.streamArn);
    const ports = { consumer: functionNameOf(record.functionArn), streams, filters: mapping.filters, region };
    return dryRun
      ? await readBatch(record.batch, ports)
      : await replayBatch(record.batch, { ...ports, invoke: deployedInvoke(lambda, record.functionArn) });
  } finally {
    lambda.destroy();
    streams.destroy();
  }
}

/** Each record as `--dry-run` lists it: its event name and its keys' values, by key name (pk, sk). */
const recordLines = (records: readonly DynamoDBRecord[]): string[] =>
  records.map(({ eventName, dynamodb }) => {
    const keys = unmarshall((dynamodb?.Keys ?? {}) as Parameters<typeof unmarshall>[0]);
    const values = Object.keys(keys)
      .sort()
      .map((name) => keys[name]);
    return `    ${eventName} ${values.join(' ')}`;
  });

/** Whether every batch went as asked: replayed in full, or on a dry run read. */
let allDone = true;
const report = (result: ReplayResult) => {
  allDone &&= result.kind === (dryRun ? 'read' : 'replayed');
  if (dryRun && result.kind === 'read') return recordLines(result.records);
  return [];
};

try {
  if (values.record !== undefined) {
    const path = values.record;
    let record: OnFailureRecord;
    try {
      record = parseOnFailureRecord(readFileSync(path, 'utf8'));
    } catch (error) {
      fail(`${path}: ${(error as Error).message}`);
    }
    console.log(describeBatch(record));
    const result = await replay(record);
    console.log(`  ${result.message}`);
    for (const line of report(result)) console.log(line);
  } else {
    const queueUrl = values['queue-url'] as string;
    const sqs = new SQSClient({ region: regionOfQueue(queueUrl) });
    let read = 0;
    const tally = await replayOnFailureQueue(queueUrl, {
      // A dry run deletes nothing: only a batch replayed in full is deleted.
      sqs,
      replay: async (record) => {
        const result = await replay(record);
        if (result.kind === 'read') read++;
        for (const line of report(result)) console.log(line);
        return result;
      },
      report: (line) => console.log(line),
    });
    if (tally.replayed + tally.notReplayed === 0) console.log(`no messages in ${queueUrl}`);
    else if (!dryRun) console.log(`${tally.replayed} batch(es) replayed in full, ${tally.notReplayed} not`);
    // Every message replayed, or on a dry run read (an unreadable message is neither).
    allDone &&= tally.notReplayed === (dryRun ? read : 0);
  }
} catch (error) {
  const { name, message } = error as Error;
  fail(`stream:replay failed: ${name}: ${message}`);
}
process.exit(allDone ? 0 : 1);

/** The region in a queue's URL (`https://sqs.<region>.amazonaws.com/…`), else the SDK's own. */
function regionOfQueue(queueUrl: string): string | undefined {
  return /^https:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com\//.exec(queueUrl)?.[1];
}
