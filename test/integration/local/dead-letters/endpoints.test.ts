import { describe, expect, it } from 'vitest';
import { api, rawRequest } from '#test/integration/harness';
import { deadLetteredAccount } from '#test/support/dead-letters';
import { useOutageRuntime } from './support';

/**
 * docs/local.md#dead-letters: `npm start` shows its dead letters to a person and redrives
 * them on request. `GET /local/dead-letters` lists every dead-letter queue (count, oldest
 * message by id and age, never a body) and the stream consumers' on-failure batches;
 * `POST /local/dead-letters/redrive` is `runtime.queues.redrive` (SQS's move task); and
 * the ERROR line of a move says how. No token, loopback only, and a web page cannot
 * trigger a redrive.
 */
const env = useOutageRuntime('tenant-dead-letters');

const local = () => api(env.runtime);
const listed = async () => {
  const answer = await local().get('/local/dead-letters', { contract: false });
  expect(answer.status).toBe(200);
  return answer.body;
};
const verificationQueue = async () =>
  (await listed()).deadLetterQueues.find((queue: { queue: string }) => queue.queue === 'verification');
const redrive = (body: unknown, headers?: Record<string, string>) =>
  local().post('/local/dead-letters/redrive', body, { headers, contract: false });

describe('GET /local/dead-letters and POST /local/dead-letters/redrive', () => {
  it('lists a dead-lettered verification message by id and age without its body, redrives it as a new message, and the account settles', async () => {
    const id = await deadLetteredAccount(env.runtime, env.invoker, env.partner);
    const [parked] = env.runtime.queues.deadLetterQueue('verification').contents();

    const before = await listed();
    expect(before.deadLetterQueues.map((queue: { queue: string }) => queue.queue)).toEqual([
      'verification',
      'statementCodeEmails',
      'identification',
      'screening',
      'webhookDeliveries',
    ]);
    expect(await verificationQueue()).toEqual({
      queue: 'verification',
      name: 'VerificationDeadLetter',
      count: 1,
      oldest: {
        messageId: parked?.messageId,
        sentAt: new Date(parked?.sentAt ?? 0).toISOString(),
        ageSeconds: expect.any(Number),
        receiveCount: 5,
      },
    });
    expect(JSON.stringify(before)).not.toContain(id);

    env.invoker.down.clear();
    const answer = await redrive({ queue: 'verification' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ queue: 'verification', moved: 1 });
    await env.runtime.settle();

    expect(await verificationQueue()).toEqual({ queue: 'verification', name: 'VerificationDeadLetter', count: 0 });
    expect((await env.partner.get(`/verify/accounts/${id}`)).body.account.verification_status).not.toBe('pending');
  });

  it('says in the ERROR line of a move how to redrive: the command with this env.runtime’s URL, and the console', async () => {
    env.logged.length = 0;
    await deadLetteredAccount(env.runtime, env.invoker, env.partner);

    expect(env.logged).toContainEqual({
      level: 'error',
      message:
        'message moved to the dead-letter queue VerificationDeadLetter; once the cause is fixed, redrive with ' +
        `\`npm run dead-letters -- --redrive verification --url ${env.runtime.url}\` or Redrive in ${env.runtime.url}/console (Dead letters)`,
    });
    env.invoker.down.clear();
    expect((await redrive({ queue: 'verification' })).body).toEqual({ queue: 'verification', moved: 1 });
    await env.runtime.settle();
  });

  it.each([
    ['a form post', 'application/x-www-form-urlencoded', 'queue=verification'],
    ['a text/plain body, which a page may send without a preflight', 'text/plain', '{"queue":"verification"}'],
    ['no content type', undefined, '{"queue":"verification"}'],
  ])('refuses %s with 415 unsupported_media_type and moves nothing', async (_name, contentType, body) => {
    await deadLetteredAccount(env.runtime, env.invoker, env.partner);

    const answer = await rawRequest(env.runtime, {
      method: 'POST',
      path: '/local/dead-letters/redrive',
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    });

    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.text)).toEqual({ error_code: 'unsupported_media_type', message: expect.any(String) });
    expect(env.runtime.queues.deadLetterQueue('verification').size).toBeGreaterThan(0);
    env.invoker.down.clear();
    env.runtime.queues.redrive('verification');
    await env.runtime.settle();
  });

  it('refuses a request naming another host (a page that rebound its name to 127.0.0.1): 403, for the list and the redrive', async () => {
    const headers = { host: 'attacker.example', 'content-type': 'application/json' };
    const post = await rawRequest(env.runtime, {
      method: 'POST',
      path: '/local/dead-letters/redrive',
      headers,
      body: '{"queue":"verification"}',
    });
    const get = await rawRequest(env.runtime, { method: 'GET', path: '/local/dead-letters', headers });

    for (const answer of [post, get]) {
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toEqual({ error_code: 'not_loopback', message: expect.any(String) });
    }
  });

  it.each([
    ['an unknown queue', { queue: 'verificationDeadLetter' }, 'unknown_queue'],
    ['no queue', {}, 'invalid_json'],
    ['a queue that is not a string', { queue: 1 }, 'invalid_json'],
    ['a body that is not JSON', '{"queue":', 'invalid_json'],
  ])('answers %s with 400 and the contract’s error shape', async (_name, body, code) => {
    const answer = await redrive(body);

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error_code: code, message: expect.any(String) });
  });

  it('lists a stream batch the router gave up on, by shard, sequence range, size, attempts, error and time, with its records’ keys and what to do', async () => {
    env.invoker.down.add('StreamRouter');
    const created = await env.partner.post('/verify/accounts', {
      account_number: '5550009999',
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
    });
    await env.runtime.settle();
    env.invoker.down.clear();

    const { streamFailures, streamFailureAdvice } = await listed();
    const [failure] = env.runtime.streamFailures;
    expect(streamFailures).toEqual([
      {
        consumer: 'StreamRouter',
        condition: 'RetryAttemptsExhausted',
        attempts: failure?.attempts,
        error: 'Error: StreamRouter: the bank is unreachable',
        at: failure?.at,
        batchInfo: failure?.batchInfo,
        records: failure?.records.map((record) => ({
          sequenceNumber: record.dynamodb?.SequenceNumber,
          eventName: record.eventName,
          keys: { pk: record.dynamodb?.Keys?.pk?.S, sk: record.dynamodb?.Keys?.sk?.S },
        })),
      },
    ]);
    expect(JSON.stringify(streamFailures)).toContain(created.body.account.id);
    expect(JSON.stringify(streamFailures)).not.toContain('Jane Doe');
    expect(streamFailureAdvice).toMatch(
      /^Find the cause .*; then Replay the batch: its records are read again from the stream/,
    );
  });
});
