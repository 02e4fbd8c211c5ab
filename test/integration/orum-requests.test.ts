import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesToRead } from '#functions/event-catalogue/read-scopes';
import type { LocalRuntime } from '#lib/local/runtime';
import { setDependencies } from '#shared/dependencies';
import { approvingUrlPolicy } from '#test/support/fakes';
import { type OrumOperation, orumBody, orumOperations } from '#test/support/orum-requests';
import { api, startTestRuntime } from './harness';

/**
 * A client written against Orum's published API (test/fixtures/orum/, Orum's own OpenAPI
 * documents, unchanged) is served here: for every one of Orum's operations, one valid
 * request built from Orum's own request schema (test/support/orum-requests.ts) is sent
 * through the local runtime and must be accepted (2xx). Where the service differs on
 * purpose, and only there, the request is translated as a client would be told to:
 * `/deliver/persons…` is `/persons…`, the `Orum-Version` header is `Service-Version`
 * (docs/api.md#service-version), and a webhook configuration's token also holds the read
 * scopes of the kinds it subscribes to (SCOPES_BEYOND_ORUM). A change that refuses what Orum's schema allows fails
 * here, unless docs/decisions.md says why and this file's translation says how.
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/orum/', import.meta.url));
const OPERATIONS = orumOperations(FIXTURES);

const HEADER_NAMES: Readonly<Record<string, string>> = { 'Orum-Version': 'Service-Version' };
const ourPath = (orumPath: string) => orumPath.replace(/^\/deliver\/persons/, '/persons');

/** The records the `{id}` of each path names: made by the operations that create them, or set up. */
const ids: Record<string, string> = {};
const idOf = (path: string): string => {
  const resource = path.split('/{id}')[0];
  const id = ids[resource];
  if (!id) throw new Error(`no record for ${path} yet: the order below creates one first`);
  return id;
};

/**
 * Values Orum's schema cannot know, each with its reason; everything else is built from
 * the schema. They are checked against the schema too (`orumBody`).
 */
const SET_BY_THE_CALLER: Readonly<Record<string, Record<string, unknown>>> = {
  // Orum's examples give a person and a business; its schema cannot say that they exclude
  // each other and need an ownership type (its own `type` description does).
  'post-verify-accounts': { type: 'status_ownership', business: undefined },
  // The code is read off the bank statement: the sandbox's is 0000 (docs/sandbox.md).
  'post-verify-account-control': { statement_code: '0000' },
  // Orum's schema says only "string": a receiver's URL is what every client sends.
  'post-webhook-configuration': { url: 'https://hooks.example.com/orum' },
  'put-webhook-configurations': { url: 'https://hooks.example.com/orum' },
};

/** Each operation once, in an order where a record exists before it is read, changed or deleted. */
const ORDER = [
  'post-verify-accounts',
  'get-verify-accounts',
  'get-verify-account',
  'post-verify-account-control',
  'post-verify-account-debit',
  'post-person',
  'get-persons',
  'put-person-using-reference-id',
  'get-person',
  'put-person',
  'patch-person',
  'delete-person',
  'post-webhook-secret',
  'get-webhook-secret',
  'post-webhook-configuration',
  'get-webhook-configurations',
  'put-webhook-configurations',
  'post-invoke',
  'delete-webhook-configurations',
] as const;

/** What a created record's id is read from, by operation. */
/**
 * Scopes a client is told to hold beyond the one Orum's operation names: a webhook
 * configuration subscribes only to kinds its token also reads
 * (docs/decisions.md#a-configuration-receives-only-what-the-token-that-saved-it-reads-issue-27).
 */
const SCOPES_BEYOND_ORUM: Readonly<Record<string, (body: any) => string[]>> = {
  'post-webhook-configuration': (body) => scopesToRead(body.event_types),
  'put-webhook-configurations': (body) => scopesToRead(body.event_types),
};

const CREATES: Readonly<Record<string, (body: any) => [resource: string, id: string]>> = {
  'post-person': (body) => ['/deliver/persons', body.person.id],
  'post-webhook-configuration': (body) => ['/webhooks/configurations', body.webhook_configuration.id],
};

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
  // Deliveries of the test event go nowhere: a receiver that answers 204.
  setDependencies({
    webhookUrlPolicy: approvingUrlPolicy,
    webhookTransport: { post: async () => ({ status: 204, latencyMs: 1 }) },
  });
  // Control is submitted on an account whose statement-code credit was sent: a control
  // verification, settled by the sandbox.
  const setup = api(runtime, await runtime.mintToken('tenant-orum', ['write:verify-accounts']));
  const account = await setup.post('/verify/accounts', {
    account_number: '1234567890',
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
    type: 'control',
  });
  expect(account.status).toBe(200);
  ids['/verify/accounts'] = account.body.account.id;
  await runtime.settle();
});
afterAll(() => runtime?.stop());

describe("Orum's requests, built from Orum's schemas", () => {
  it('covers every operation of Orum’s documents, each once', () => {
    expect([...ORDER].sort()).toEqual(OPERATIONS.map((operation) => operation.operationId).sort());
  });

  it.each(ORDER)('accepts Orum’s %s request', async (operationId) => {
    const operation = OPERATIONS.find((candidate) => candidate.operationId === operationId) as OrumOperation;
    const path = ourPath(operation.path.replace('{id}', () => idOf(operation.path)));
    const query = new URLSearchParams(operation.query).toString();
    const headers = Object.fromEntries(
      Object.entries(operation.headers).map(([name, value]) => [HEADER_NAMES[name] ?? name, value]),
    );
    const body = operation.bodySchema ? orumBody(operation, SET_BY_THE_CALLER[operationId]) : undefined;
    const scopes = [...operation.scopes, ...(SCOPES_BEYOND_ORUM[operationId]?.(body) ?? [])];
    const client = api(runtime, await runtime.mintToken('tenant-orum', scopes));

    const answer = await client.request(operation.method, query ? `${path}?${query}` : path, { headers, body });

    const exchange = `${operation.method} ${path} ${JSON.stringify(body) ?? ''} → ${JSON.stringify(answer.body)}`;
    expect(answer.status, exchange).toBeGreaterThanOrEqual(200);
    expect(answer.status, exchange).toBeLessThan(300);
    const created = CREATES[operationId]?.(answer.body);
    if (created) ids[created[0]] = created[1];
  });
});
