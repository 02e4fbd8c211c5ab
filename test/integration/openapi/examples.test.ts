import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import type { Example } from '#lib/openapi/examples/example';
import { OPERATIONS } from '#lib/openapi/operations/index';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import { setDependencies } from '#shared/dependencies';
import { DnsWebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';
import { api, startTestRuntime } from '../harness';

/**
 * Every request example of the OpenAPI document (lib/openapi/examples/) works as shown:
 * sent as it is to the local runtime, with the whole pipeline, it gets the route's success
 * answer, or the error its summary names (`400 incorrect_statement_code`). A path id is a
 * record the document's own examples made: PATCH /persons/{id} is tried on a person made
 * by every create example, since a partner may try any of them first.
 */
let runtime: LocalRuntime;
let tenants = 0;
/** A client of a tenant of its own, so examples never meet each other's references or limits. */
const freshClient = async () => api(runtime, await runtime.mintToken(`tenant-examples-${++tenants}`));

beforeAll(async () => {
  runtime = await startTestRuntime();
  // The examples' hosts are fictional (`hooks.acme.example`); a partner's own resolves to a public address.
  setDependencies({
    webhookUrlPolicy: new DnsWebhookUrlPolicy({ allowLoopbackHttp: true, resolve: async () => ['93.184.216.34'] }),
  });
});
afterAll(() => runtime?.stop());

const routeOf = (id: string) => ROUTES.find((route) => route.id === id) as RouteDefinition;
const examplesOf = (id: string): [string, Example][] => Object.entries(OPERATIONS[id]?.requestBody?.examples ?? {});

/** The status and code an example's summary names, else the route's success. */
function expectedOf(routeId: string, example: Example): { status: number; code?: string } {
  const named = /`(\d{3}) ([a-z_]+)`/.exec(example.summary);
  if (named) return { status: Number(named[1]), code: named[2] };
  return { status: OPERATIONS[routeId]?.success.status as number };
}

async function sendExample(
  client: Awaited<ReturnType<typeof freshClient>>,
  routeId: string,
  example: Example,
  id?: string,
) {
  const route = routeOf(routeId);
  const path = id === undefined ? route.path : route.path.replace('{id}', id);
  const response = await client.request(route.method, path, { body: example.value });
  const expected = expectedOf(routeId, example);
  expect(
    { status: response.status, code: response.body?.error_code },
    `${example.summary}: ${JSON.stringify(response.body)}`,
  ).toEqual({ status: expected.status, code: expected.code });
  return response;
}

const WITHOUT_PATH_ID = ROUTES.filter((route) => !route.path.includes('{') && examplesOf(route.id).length > 0);

describe('the OpenAPI document’s request examples work as shown', () => {
  it('covers every route with request examples', () => {
    const covered = [...WITHOUT_PATH_ID.map((route) => route.id), 'UpdatePerson', 'VerifyAccountControl'];
    const withExamples = ROUTES.filter((route) => examplesOf(route.id).length > 0).map((route) => route.id);
    expect(covered.sort()).toEqual(withExamples.sort());
  });

  describe.each(WITHOUT_PATH_ID.map((route) => [route.id] as const))('%s', (routeId) => {
    it.each(examplesOf(routeId))('%s', async (_name, example) => {
      await sendExample(await freshClient(), routeId, example);
    });
  });

  describe('UpdatePerson (PATCH /persons/{id})', () => {
    const pairs = examplesOf('CreatePerson').flatMap(([created]) =>
      examplesOf('UpdatePerson').map(([patch]) => [patch, created] as const),
    );
    it.each(pairs)('%s, on a person made by the create example %s', async (patch, created) => {
      const client = await freshClient();
      const create = OPERATIONS.CreatePerson?.requestBody?.examples?.[created] as Example;
      const person = (await sendExample(client, 'CreatePerson', create)).body.person;
      await runtime.settle();
      await sendExample(
        client,
        'UpdatePerson',
        OPERATIONS.UpdatePerson?.requestBody?.examples?.[patch] as Example,
        person.id,
      );
    });
  });

  describe('VerifyAccountControl (POST /verify/accounts/{id}/control)', () => {
    it.each(examplesOf('VerifyAccountControl'))(
      '%s, on the account of the create example `control`',
      async (_name, example) => {
        const client = await freshClient();
        const create = OPERATIONS.CreateVerifyAccount?.requestBody?.examples?.control as Example;
        const account = (await sendExample(client, 'CreateVerifyAccount', create)).body.account;
        await runtime.settle();
        await sendExample(client, 'VerifyAccountControl', example, account.id);
      },
    );
  });
});
