import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import type { EventEnvelope } from '#domain/event-envelope';
import type { LocalRuntime } from '#lib/local/runtime';
import { documentClient } from '#shared/db/document-client';
import { storedEvents } from '#shared/db/stored-events/index';
import { eventKeys } from '#shared/db/stored-events/keys';
import { api, startTestRuntime } from '../harness';

let counter = 0;
/** A customer reference id no other test uses. */
export const freshReference = (): string => `ref-${Date.now()}-${++counter}`;

/** A number written in letters (`0` → `a`, …), for unique names: a person's names hold no digits. */
export const letters = (n: number): string =>
  String(n).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] as string);

/** A person with everything identification needs, passing every sandbox check. */
export const personBody = (over: Record<string, unknown> = {}) => ({
  customer_reference_id: freshReference(),
  first_name: 'Jane',
  last_name: 'Doe',
  date_of_birth: '1990-04-12',
  social_security_number: '123-45-6789',
  addresses: [
    { type: 'home', address1: '1 Main Street', city: 'Springfield', state: 'IL', country: 'US', zip5: '62701' },
  ],
  contacts: [{ type: 'email', value: 'jane@example.com' }],
  ...over,
});

/**
 * A runtime for the whole test file with clients for two tenants and a read-only one. The
 * automatic identification retry waits 60 s, which the local queues compress to 0.5 s.
 */
export function usePersonsRuntime() {
  const env = {} as {
    runtime: LocalRuntime;
    alice: ReturnType<typeof api>;
    bob: ReturnType<typeof api>;
    readOnly: ReturnType<typeof api>;
  };
  beforeAll(async () => {
    process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '60';
    env.runtime = await startTestRuntime();
    env.alice = api(env.runtime, await env.runtime.mintToken('tenant-alice'));
    env.bob = api(env.runtime, await env.runtime.mintToken('tenant-bob'));
    env.readOnly = api(env.runtime, await env.runtime.mintToken('tenant-alice', ['read:persons']));
  });
  afterAll(async () => {
    await env.runtime?.stop();
    delete process.env.IDENTIFICATION_RETRY_DELAY_SECONDS;
  });
  return env;
}

/** Every stored event of a tenant about one person, oldest first. */
export async function personEvents(runtime: LocalRuntime, tenant: string, personId: string): Promise<EventEnvelope[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: runtime.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': eventKeys.list(tenant, 0) },
      ScanIndexForward: true,
    }),
  );
  const stored = await Promise.all((out.Items ?? []).map((item) => storedEvents().get(tenant, String(item.id))));
  return stored
    .flatMap((event) => (event ? [event.envelope] : []))
    .filter((envelope) => (envelope.event_data as { person?: { id: string } }).person?.id === personId);
}
