import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { LocalRuntime, LocalRuntimeOptions } from '#lib/local/runtime';
import type { BankProvider } from '#shared/bank/bank-provider';
import { documentClient } from '#shared/db/document-client';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { setDependencies } from '#shared/dependencies';
import { api, startTestRuntime } from '../harness';

/** A valid create body; account numbers must differ between accounts of a test (5-per-24h limit). */
export const accountBody = (over: Record<string, unknown> = {}) => ({
  account_number: '1234567890',
  routing_number: '021000021',
  account_holder_name: 'Jane Doe',
  ...over,
});

let counter = 0;
/** A fresh account number ending in digits the sandbox treats as `valid`. */
export const freshAccountNumber = (): string =>
  `${Date.now() % 1_000_000}${String(++counter).padStart(4, '0')}6789`.slice(-15);

export async function clientsFor(runtime: LocalRuntime) {
  return {
    alice: api(runtime, await runtime.mintToken('tenant-alice')),
    bob: api(runtime, await runtime.mintToken('tenant-bob')),
    readOnly: api(runtime, await runtime.mintToken('tenant-alice', ['read:verify-accounts'])),
    anonymous: api(runtime),
  };
}

/** The raw stored item, as DynamoDB holds it. */
export async function storedItem(runtime: LocalRuntime, tenant: string, id: string) {
  const out = await documentClient().send(
    new GetCommand({ TableName: runtime.tableName, Key: accountKeys.account(tenant, id) }),
  );
  return out.Item;
}

/**
 * A runtime for the whole test file, with clients for two tenants, a read-only token and
 * no token. Read `runtime` and `clients` inside tests (they exist once `beforeAll` ran).
 */
export function useVerifyRuntime(options: Partial<LocalRuntimeOptions> = {}) {
  const env = {} as { runtime: LocalRuntime; clients: Awaited<ReturnType<typeof clientsFor>> };
  beforeAll(async () => {
    env.runtime = await startTestRuntime(options);
    env.clients = await clientsFor(env.runtime);
  });
  afterAll(() => env.runtime?.stop());
  return env;
}

/**
 * `useVerifyRuntime` with a bank on rails put in place before each test (`bank()` builds
 * it) and taken away after, and the helpers every rails test uses: `created`, an account of
 * Alice's once the pipeline has run (the rails leave it pending), and `account`, as read now.
 */
export function useRailsRuntime(bank: () => BankProvider, options: Partial<LocalRuntimeOptions> = {}) {
  const env = useVerifyRuntime(options);
  beforeEach(() => setDependencies({ bank: bank() }));
  afterEach(() => setDependencies({ bank: undefined }));
  async function created(over: Record<string, unknown> = {}): Promise<string> {
    const answer = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber(), ...over }),
    );
    expect(answer.status).toBe(200);
    await env.runtime.settle();
    return answer.body.account.id as string;
  }
  const account = async (id: string) => (await env.clients.alice.get(`/verify/accounts/${id}`)).body.account;
  return { env, created, account };
}
