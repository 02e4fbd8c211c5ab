import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamFailure } from '#lib/local/pipeline/stream-failure';
import type { LocalRuntime } from '#lib/local/runtime';
import { CONSUMERS } from '#lib/service/index';
import { api, startTestRuntime } from '#test/integration/harness';
import { runCommand } from '#test/support/commands';
import { givenUpAccount, OutageInvoker } from '#test/support/dead-letters';
import { startLambdaApi } from '#test/support/lambda-api';

/**
 * docs/operations.md: `npm run stream:replay` (bin/stream-replay.ts), as an operator runs
 * it on an on-failure record of the deployed stream router, here run against the local
 * runtime: the stream it reads is DynamoDB Local's (`AWS_ENDPOINT_URL_DYNAMODB_STREAMS`),
 * and Lambda's API (`AWS_ENDPOINT_URL_LAMBDA`) is a stand-in in front of the runtime's
 * stream router. A batch the router gave up on is replayed from the record alone, and the
 * account it holds is verified as it would have been.
 */
const invoker = new OutageInvoker();
const ROUTER = CONSUMERS.find((consumer) => consumer.id === 'StreamRouter');
let runtime: LocalRuntime;
let partner: ReturnType<typeof api>;
let lambda: Awaited<ReturnType<typeof startLambdaApi>>;
const dir = mkdtempSync(join(tmpdir(), 'stream-replay-'));

beforeAll(async () => {
  if (!ROUTER) throw new Error('no StreamRouter consumer');
  runtime = await startTestRuntime({ invoker, screeningLists: false, log: () => {} });
  partner = api(runtime, await runtime.mintToken('tenant-stream-replay-command'));
  lambda = await startLambdaApi(ROUTER, invoker);
});
afterAll(async () => {
  await lambda?.close();
  await runtime?.stop();
});

/** What Lambda sends to the on-failure queue for the batch (the message's body), in a file. */
function onFailureRecordFile(failure: StreamFailure, batchInfo = failure.batchInfo): string {
  const path = join(dir, `${randomUUID()}.json`);
  const record = {
    requestContext: {
      requestId: randomUUID(),
      functionArn: lambda.functionArn,
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: failure.attempts,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: failure.at,
    DDBStreamBatchInfo: batchInfo,
  };
  writeFileSync(path, JSON.stringify(record));
  return path;
}

/** Runs `npm run stream:replay -- <args>` with the stand-ins' endpoints and no other AWS setting. */
const streamReplay = (...args: string[]) =>
  runCommand('stream-replay.ts', args, {
    PATH: process.env.PATH,
    HOME: dir,
    AWS_ACCESS_KEY_ID: 'operator',
    AWS_SECRET_ACCESS_KEY: 'operator-secret',
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: runtime.dynamoEndpoint,
    AWS_ENDPOINT_URL_LAMBDA: lambda.url,
  });

const accountStatus = async (id: string) =>
  (await partner.get(`/verify/accounts/${id}`)).body.account.verification_status;

describe('npm run stream:replay -- --record <file>', () => {
  it('reads the batch from the stream by its range and invokes the router with exactly its records: the account is verified', async () => {
    const { id, failure } = await givenUpAccount(runtime, invoker, partner);
    invoker.down.clear();
    const { shardId, startSequenceNumber, endSequenceNumber, batchSize } = failure.batchInfo;

    const replayed = await streamReplay('--record', onFailureRecordFile(failure));

    expect(replayed).toMatchObject({ code: 0, stderr: '' });
    expect(replayed.stdout).toContain(`shard ${shardId}, sequence ${startSequenceNumber}–${endSequenceNumber}`);
    expect(replayed.stdout).toContain(`replayed ${batchSize} record(s) to StreamRouter, which processed them`);
    // As Lambda handed them to the router, but for the region: DynamoDB Local's stream ARN names `ddblocal`.
    expect(lambda.invocations).toEqual([
      { Records: failure.records.map((record) => ({ ...record, awsRegion: 'ddblocal' })) },
    ]);
    await runtime.settle();
    expect(await accountStatus(id)).not.toBe('pending');
  });

  it('reads and lists the records with --dry-run, and invokes nothing', async () => {
    lambda.invocations.length = 0;
    const { id, failure } = await givenUpAccount(runtime, invoker, partner);
    invoker.down.clear();

    const read = await streamReplay('--record', onFailureRecordFile(failure), '--dry-run');

    expect(read).toMatchObject({ code: 0, stderr: '' });
    expect(read.stdout).toContain(`would replay ${failure.batchInfo.batchSize} record(s) to StreamRouter`);
    expect(read.stdout).toMatch(new RegExp(`INSERT T#tenant-stream-replay-command#VA#${id} VA`));
    expect(lambda.invocations).toEqual([]);
    expect(await accountStatus(id)).toBe('pending');
  });

  it('says that a batch past the stream’s 24 h may be gone, does nothing, and exits 1', async () => {
    lambda.invocations.length = 0;
    const { failure } = await givenUpAccount(runtime, invoker, partner);
    invoker.down.clear();
    const dayAndMinuteAgo = new Date(Date.now() - 24 * 3_600_000 - 60_000).toISOString();

    const answer = await streamReplay(
      '--record',
      onFailureRecordFile(failure, { ...failure.batchInfo, approximateArrivalOfFirstRecord: dayAndMinuteAgo }),
    );

    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain(
      `the batch's first record reached the stream at ${dayAndMinuteAgo}, 24 h ago or more: the stream keeps records 24 h, so they may be gone; nothing was replayed`,
    );
    expect(lambda.invocations).toEqual([]);
  });

  it('refuses a file that is not an on-failure record of a stream, in one line, and exits 1', async () => {
    const path = join(dir, 'not-a-record.json');
    writeFileSync(path, JSON.stringify({ Records: [] }));

    const answer = await streamReplay('--record', path);

    expect(answer.code).toBe(1);
    expect(answer.stderr.trim()).toMatch(/^.*not-a-record\.json: the on-failure record holds no DDBStreamBatchInfo/);
    expect(answer.stderr).not.toMatch(/\n\s+at /);
  });
});
