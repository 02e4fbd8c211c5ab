import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hashStatementCode } from '../../../functions/domain/statement-code';
import { SANDBOX_STATEMENT_CODE } from '../../../functions/shared/bank/sandbox-bank';
import { documentClient } from '../../../functions/shared/aws';
import { keys } from '../../../functions/shared/db/keys';
import { VerifyAccountRepository } from '../../../functions/shared/db/verify-accounts';
import type { LocalRuntime } from '../../../lib/local/runtime';
import { api } from '../harness';

/** A valid create body; account numbers must differ between accounts of a test (5-per-24h limit). */
export const accountBody = (over: Record<string, unknown> = {}) => ({
  account_number: '1234567890',
  routing_number: '021000021',
  account_holder_name: 'Jane Doe',
  ...over,
});

let counter = 0;
/** A fresh account number ending in digits the sandbox treats as `valid`. */
export const freshAccountNumber = (): string => `${Date.now() % 1_000_000}${String(++counter).padStart(4, '0')}6789`.slice(-15);

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
    new GetCommand({ TableName: runtime.tableName, Key: keys.verifyAccount(tenant, id) }),
  );
  return out.Item;
}

/** What the verification worker does once the credit carrying the statement code is out. */
export async function markStatementCodeSent(runtime: LocalRuntime, tenant: string, id: string) {
  const repository = new VerifyAccountRepository(documentClient(), runtime.tableName);
  const account = await repository.get(tenant, id);
  if (!account) throw new Error(`no account ${id}`);
  await repository.recordStatementCodeSent(account, new Date(), hashStatementCode(SANDBOX_STATEMENT_CODE));
}
