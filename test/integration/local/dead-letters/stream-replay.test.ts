import { describe, expect, it } from 'vitest';
import type { StreamFailure } from '#lib/local/pipeline/stream-failure';
import { api, rawRequest } from '#test/integration/harness';
import { givenUpAccount } from '#test/support/dead-letters';
import { captureLogs } from '#test/support/logs';
import { useOutageRuntime } from './support';

/**
 * docs/local.md#dead-letters: once its cause is fixed, a stream batch the router gave up on
 * is replayed with **Replay** in the console's Dead letters view (`POST
 * /local/dead-letters/replay`). Its records are read again from the table's stream by the
 * batch's shard and sequence range, as `npm run stream:replay` reads them in AWS
 * (docs/operations.md), and handed to the router exactly as its event source mapping
 * handed them: the work they describe then happens as it would have.
 */
const env = useOutageRuntime('tenant-stream-replay');
env.invoker.recorded.add('StreamRouter');
const logs = captureLogs();

const replay = (body: unknown) => api(env.runtime).post('/local/dead-letters/replay', body, { contract: false });
/** What names a batch given up: its consumer, shard and first sequence number. */
const batchOf = ({ consumer, batchInfo }: StreamFailure) => ({
  consumer,
  shardId: batchInfo.shardId,
  startSequenceNumber: batchInfo.startSequenceNumber,
});
const listed = async (failure: StreamFailure) => {
  const answer = await api(env.runtime).get('/local/dead-letters', { contract: false });
  return answer.body.streamFailures.filter(
    (listedFailure: StreamFailure) =>
      listedFailure.batchInfo.startSequenceNumber === failure.batchInfo.startSequenceNumber,
  );
};
const accountStatus = async (id: string) =>
  (await env.partner.get(`/verify/accounts/${id}`)).body.account.verification_status;
/** The router's invocations that held any record of the batch. */
const invocationsOf = (failure: StreamFailure) => {
  const sequenceNumbers = new Set(failure.records.map((record) => record.dynamodb?.SequenceNumber));
  return env.invoker.invocations.filter(({ event }) =>
    event.Records.some((record: any) => sequenceNumbers.has(record.dynamodb?.SequenceNumber)),
  );
};

describe('replaying a stream batch the router gave up on (POST /local/dead-letters/replay)', () => {
  it('hands the router exactly the batch’s records, read again from the stream: the verification runs and the batch leaves the list', async () => {
    const { id, failure } = await givenUpAccount(env.runtime, env.invoker, env.partner);
    expect(await accountStatus(id)).toBe('pending');
    env.invoker.down.clear();
    env.invoker.invocations.length = 0;

    const answer = await replay(batchOf(failure));

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...batchOf(failure),
      endSequenceNumber: failure.batchInfo.endSequenceNumber,
      result: 'replayed',
      records: failure.batchInfo.batchSize,
      message: expect.stringMatching(/^replayed \d+ record\(s\) to StreamRouter/),
    });
    // As the stream poller handed them to the router before it gave up: the same records, in one invocation.
    expect(invocationsOf(failure)).toEqual([{ name: 'StreamRouter', event: { Records: failure.records } }]);
    await env.runtime.settle();
    expect(await accountStatus(id)).not.toBe('pending');
    expect(logs).toContainEqual(expect.objectContaining({ message: 'verification settled', verify_account_id: id }));
    expect(env.runtime.streamFailures).not.toContain(failure);
    expect(await listed(failure)).toEqual([]);
  });

  it('says in the ERROR line of a batch given up how to replay it: the command with this env.runtime’s URL, and the console', async () => {
    env.logged.length = 0;
    const { failure } = await givenUpAccount(env.runtime, env.invoker, env.partner);
    env.invoker.down.clear();

    expect(env.logged).toContainEqual({
      level: 'error',
      message:
        'StreamRouter gave up on a stream batch; sent to the on-failure destination; once the cause is fixed, replay with ' +
        `\`npm run dead-letters -- --replay ${failure.batchInfo.startSequenceNumber} --url ${env.runtime.url}\` ` +
        `or Replay in ${env.runtime.url}/console (Dead letters)`,
    });
    expect((await replay(batchOf(failure))).body.result).toBe('replayed');
    await env.runtime.settle();
  });

  it('keeps a batch whose replay fails, saying why: the cause is not fixed yet', async () => {
    const { id, failure } = await givenUpAccount(env.runtime, env.invoker, env.partner);

    const answer = await replay(batchOf(failure));

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ...batchOf(failure), result: 'failed', records: failure.batchInfo.batchSize });
    expect(answer.body.message).toContain('StreamRouter: the bank is unreachable');
    expect(env.runtime.streamFailures).toContain(failure);
    expect(await accountStatus(id)).toBe('pending');

    env.invoker.down.clear();
    expect((await replay(batchOf(failure))).body.result).toBe('replayed');
    await env.runtime.settle();
    expect(await accountStatus(id)).not.toBe('pending');
  });

  it('answers 404 unknown_stream_batch for a batch no consumer gave up on, or replayed already', async () => {
    const { failure } = await givenUpAccount(env.runtime, env.invoker, env.partner);
    env.invoker.down.clear();
    expect((await replay(batchOf(failure))).body.result).toBe('replayed');
    await env.runtime.settle();

    for (const body of [batchOf(failure), { ...batchOf(failure), consumer: 'Nobody' }]) {
      const answer = await replay(body);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error_code: 'unknown_stream_batch', message: expect.any(String) });
    }
  });

  it.each([
    ['no sequence number', { consumer: 'StreamRouter', shardId: 'shardId-1' }],
    ['a field of another type', { consumer: 'StreamRouter', shardId: 'shardId-1', startSequenceNumber: 1 }],
    ['a body that is not JSON', '{"consumer":'],
  ])('answers %s with 400 invalid_json', async (_name, body) => {
    const answer = await replay(body);

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error_code: 'invalid_json', message: expect.any(String) });
  });

  it('refuses a body a web page could send without a preflight (415), and a request naming another host (403)', async () => {
    const body = JSON.stringify({ consumer: 'StreamRouter', shardId: 'shardId-1', startSequenceNumber: '1' });
    const path = '/local/dead-letters/replay';

    const plain = await rawRequest(env.runtime, {
      method: 'POST',
      path,
      headers: { 'content-type': 'text/plain' },
      body,
    });
    const rebound = await rawRequest(env.runtime, {
      method: 'POST',
      path,
      headers: { host: 'attacker.example', 'content-type': 'application/json' },
      body,
    });

    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.text)).toEqual({ error_code: 'unsupported_media_type', message: expect.any(String) });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text)).toEqual({ error_code: 'not_loopback', message: expect.any(String) });
  });
});
