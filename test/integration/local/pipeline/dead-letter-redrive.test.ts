import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '#test/integration/harness';
import { OutageInvoker } from '#test/support/dead-letters';
import { captureLogs } from '#test/support/logs';

/**
 * docs/operations.md#dead-letters: once the cause of a dead-lettered message is fixed,
 * redriving the dead-letter queue (`aws sqs start-message-move-task`; `queues.redrive`
 * locally) hands the message back to its queue, and the worker completes the work.
 */
const invoker = new OutageInvoker();
const logs = captureLogs();
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ invoker, screeningLists: false, log: () => {} });
  call = api(runtime, await runtime.mintToken('tenant-redrive'));
});
afterAll(() => runtime?.stop());

describe('redriving a dead-letter queue', () => {
  it('completes the work of a message that failed maxReceiveCount times, once the cause is fixed', async () => {
    invoker.down.add('VerificationWorker');
    const created = await call.post('/verify/accounts', {
      account_number: '5550001234',
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
    });
    expect(created.status).toBe(200);
    const id = created.body.account.id as string;
    await runtime.settle();
    const deadLetters = runtime.queues.deadLetterQueue('verification');
    expect(deadLetters.bodies()).toEqual([{ tenant: 'tenant-redrive', id }]);
    expect((await call.get(`/verify/accounts/${id}`)).body.account.verification_status).toBe('pending');

    invoker.down.clear();
    expect(runtime.queues.redrive('verification')).toBe(1);
    await runtime.settle();

    expect(deadLetters.size).toBe(0);
    expect((await call.get(`/verify/accounts/${id}`)).body.account.verification_status).not.toBe('pending');
    // A new message, as after a move task: its receive count starts again.
    expect(logs).toContainEqual(
      expect.objectContaining({ message: 'verification settled', verify_account_id: id, receive_count: '1' }),
    );
  });
});
