import { expect } from 'vitest';
import { type FunctionDefinition, LambdaInvoker } from '#lib/local/lambda-invoker';
import type { LocalRuntime } from '#lib/local/runtime';
import type { api } from '#test/integration/harness';

// How the dead-letter tests make a dead letter: the bank "goes down" for the verification
// worker, so a new account's message fails every receive and is moved to the dead-letter
// queue, as in docs/operations.md#dead-letters.

/** Invokes functions as LambdaInvoker does, except those named in `down`, which fail as a crashed one would. */
export class OutageInvoker extends LambdaInvoker {
  down = new Set<string>();
  override invoke(fn: FunctionDefinition, event: unknown): Promise<unknown> {
    if (this.down.has(fn.name)) return Promise.reject(new Error(`${fn.name}: the bank is unreachable`));
    return super.invoke(fn, event);
  }
}

/**
 * Creates an account while the verification worker is down and waits until its message is
 * in the verification dead-letter queue; the worker stays down. Resolves with the account id.
 */
export async function deadLetteredAccount(
  runtime: LocalRuntime,
  invoker: OutageInvoker,
  partner: ReturnType<typeof api>,
): Promise<string> {
  invoker.down.add('VerificationWorker');
  const created = await partner.post('/verify/accounts', {
    // A fresh number each time (an account number may be verified 5 times a day), ending in
    // digits the sandbox bank finds valid.
    account_number: `${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}0042`,
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
  });
  expect(created.status).toBe(200);
  const id = created.body.account.id as string;
  await runtime.settle();
  expect(runtime.queues.deadLetterQueue('verification').bodies()).toContainEqual(expect.objectContaining({ id }));
  return id;
}
