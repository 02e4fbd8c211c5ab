import { expect } from 'vitest';
import { type FunctionDefinition, LambdaInvoker } from '#lib/local/lambda-invoker';
import type { StreamFailure } from '#lib/local/pipeline/stream-failure';
import type { LocalRuntime } from '#lib/local/runtime';
import type { api } from '#test/integration/harness';

// How the dead-letter tests make a dead letter: the bank "goes down" for the verification
// worker, so a new account's message fails every receive and is moved to the dead-letter
// queue, as in docs/operations.md#dead-letters; or for the stream router, so the stream
// batch of a new account is given up to its on-failure destination.

/**
 * Invokes functions as LambdaInvoker does, except those named in `down`, which fail as a
 * crashed one would; keeps every invocation of the functions named in `recorded`.
 */
export class OutageInvoker extends LambdaInvoker {
  down = new Set<string>();
  readonly recorded = new Set<string>();
  readonly invocations: { readonly name: string; readonly event: any }[] = [];
  override invoke(fn: FunctionDefinition, event: unknown): Promise<unknown> {
    if (this.recorded.has(fn.name)) this.invocations.push({ name: fn.name, event });
    if (this.down.has(fn.name)) return Promise.reject(new Error(`${fn.name}: the bank is unreachable`));
    return super.invoke(fn, event);
  }
}

/** A new account of a number of its own that the sandbox bank verifies `valid`; its id. */
export async function createdAccount(partner: ReturnType<typeof api>): Promise<string> {
  const created = await partner.post('/verify/accounts', {
    // A fresh number each time (an account number may be verified 5 times a day), ending in
    // digits the sandbox bank finds valid.
    account_number: `${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}0042`,
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
  });
  expect(created.status).toBe(200);
  return created.body.account.id as string;
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
  const id = await createdAccount(partner);
  await runtime.settle();
  expect(runtime.queues.deadLetterQueue('verification').bodies()).toContainEqual(expect.objectContaining({ id }));
  return id;
}

/**
 * Creates an account while the stream router is down and waits until the router gave up
 * the stream batch that holds its INSERT; the router stays down. Resolves with the account
 * id and that batch.
 */
export async function givenUpAccount(
  runtime: LocalRuntime,
  invoker: OutageInvoker,
  partner: ReturnType<typeof api>,
): Promise<{ id: string; failure: StreamFailure }> {
  invoker.down.add('StreamRouter');
  const id = await createdAccount(partner);
  await runtime.settle();
  const failure = runtime.streamFailures.find((given) => JSON.stringify(given.records).includes(id));
  if (!failure) throw new Error(`the stream router gave up no batch holding account ${id}`);
  return { id, failure };
}
