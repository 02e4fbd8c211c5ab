import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENV } from '#shared/config';
import { tenants } from '#shared/db/tenants/index';
import { api, startTestRuntime } from '#test/integration/harness';

/**
 * A deployed stack's tenant resolution on DynamoDB Local, over HTTP: the local runtime's
 * TENANTS_FROM_CLIENT_IDS is taken away, so only a client id with an alias record acts for
 * a tenant, exactly as in AWS.
 */
let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  delete process.env[ENV.tenantsFromClientIds];
  await tenants().putAlias('acme-app-client', 'acme');
});
afterAll(async () => {
  process.env[ENV.tenantsFromClientIds] = 'true';
  await runtime?.stop();
});

describe('a client id without an alias, as deployed', () => {
  it('answers 403 unknown_client in the error shape, even when the client id is a partner’s name', async () => {
    for (const clientId of ['client-nobody-mapped', 'acme']) {
      const res = await api(runtime, await runtime.mintToken(clientId)).get('/persons');

      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error_code: 'unknown_client',
        message: expect.any(String),
        request_id: expect.any(String),
      });
      expect(res.headers['x-request-id']).toBe(res.body.request_id);
    }
  });

  it('lets the partner’s aliased client in, as the partner', async () => {
    const res = await api(runtime, await runtime.mintToken('acme-app-client')).get('/persons');

    expect(res.status).toBe(200);
    expect(res.body.persons).toEqual([]);
  });
});
