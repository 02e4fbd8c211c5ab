import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as get } from '#functions/verify-accounts/handlers/get';
import { ENV } from '#shared/config';
import { keys } from '#shared/db/keys';
import {
  ACCOUNT_ID,
  accountGets,
  ddb,
  ERROR_BODY_KEYS,
  getEvent,
  givenStored,
  storedAccount,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

/**
 * The tenant middleware (functions/shared/http/middlewares.ts): a token's `client_id` acts
 * for the tenant its alias record names; in a deployed stack nothing else does. The local
 * runtime's `TENANTS_FROM_CLIENT_IDS` lets a client id without an alias be its own tenant.
 * Each test uses client ids of its own: warm containers cache answers per client id.
 */
const harness = useHandlerHarness();
const SCOPE = 'verify-service/read:verify-accounts';

const withoutAlias = (clientId: string) => ddb.on(GetCommand, { Key: keys.tenantAlias(clientId) }).resolves({});
const withAlias = (clientId: string, tenant: string) =>
  ddb.on(GetCommand, { Key: keys.tenantAlias(clientId) }).resolves({ Item: { tenant } });
const aliasReads = (clientId: string) => ddb.commandCalls(GetCommand, { Key: keys.tenantAlias(clientId) });
const asClient = (claims: { client_id?: string; sub?: string }) =>
  getEvent(ACCOUNT_ID, { claims: { ...claims, scope: SCOPE } });

afterEach(() => {
  delete process.env[ENV.tenantsFromClientIds];
  vi.useRealTimers();
});

describe('tenant, as deployed (no TENANTS_FROM_CLIENT_IDS)', () => {
  it('answers 403 unknown_client in the error shape to a client id without an alias record, before any data is read or a token taken', async () => {
    withoutAlias('client-unmapped');

    const res = await invoke(get, asClient({ client_id: 'client-unmapped' }));

    expect(res.statusCode).toBe(403);
    expect(res.body.error_code).toBe('unknown_client');
    expect(typeof res.body.request_id).toBe('string');
    for (const key of Object.keys(res.body)) expect(ERROR_BODY_KEYS).toContain(key);
    expect(res.body.message).not.toContain('client-unmapped');
    expect(accountGets()).toHaveLength(0);
    expect(harness.rateLimits.taken).toEqual([]);
  });

  it('refuses a raw client id equal to a partner’s name: only an alias makes a client act for a partner', async () => {
    withAlias('acme-app-client', 'acme');
    withoutAlias('acme');
    givenStored(storedAccount({ tenant: 'acme' }));

    const refused = await invoke(get, asClient({ client_id: 'acme' }));
    const mapped = await invoke(get, asClient({ client_id: 'acme-app-client' }));

    expect(refused.statusCode).toBe(403);
    expect(refused.body.error_code).toBe('unknown_client');
    expect(mapped.statusCode).toBe(200);
    expect(mapped.body.account.id).toBe(ACCOUNT_ID);
  });

  it('answers 401 unauthorized to a token with a sub but no client_id, even when the sub is a mapped client id', async () => {
    withAlias('client-by-sub', 'acme');
    givenStored(storedAccount({ tenant: 'acme' }));

    const res = await invoke(get, asClient({ sub: 'client-by-sub' }));

    expect(res.statusCode).toBe(401);
    expect(res.body.error_code).toBe('unauthorized');
    expect(aliasReads('client-by-sub')).toHaveLength(0);
    expect(accountGets()).toHaveLength(0);
  });

  it('remembers an unknown client briefly: its next requests read no alias again', async () => {
    withoutAlias('client-knocking');

    for (let i = 0; i < 3; i++)
      expect((await invoke(get, asClient({ client_id: 'client-knocking' }))).statusCode).toBe(403);

    expect(aliasReads('client-knocking')).toHaveLength(1);
  });

  it('looks an unknown client up again once that answer expired, so a partner onboarded meanwhile gets in within a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-16T15:30:00.000Z'));
    withoutAlias('client-onboarded');
    expect((await invoke(get, asClient({ client_id: 'client-onboarded' }))).statusCode).toBe(403);

    withAlias('client-onboarded', 'acme');
    givenStored(storedAccount({ tenant: 'acme' }));
    vi.setSystemTime(new Date('2026-01-16T15:31:00.000Z'));
    const res = await invoke(get, asClient({ client_id: 'client-onboarded' }));

    expect(res.statusCode).toBe(200);
    expect(aliasReads('client-onboarded')).toHaveLength(2);
  });
});

describe('tenant in the local runtime (TENANTS_FROM_CLIENT_IDS=true)', () => {
  it('makes a client id without an alias its own tenant', async () => {
    process.env[ENV.tenantsFromClientIds] = 'true';
    withoutAlias('local-partner');
    givenStored(storedAccount({ tenant: 'local-partner' }));

    const res = await invoke(get, asClient({ client_id: 'local-partner' }));

    expect(res.statusCode).toBe(200);
    expect(accountGets().map((c) => c.args[0].input.Key)).toEqual([
      { pk: `T#local-partner#VA#${ACCOUNT_ID}`, sk: 'VA' },
    ]);
  });

  it('still maps a client id with an alias to the alias’s tenant', async () => {
    process.env[ENV.tenantsFromClientIds] = 'true';
    withAlias('local-rotated', 'acme');
    givenStored(storedAccount({ tenant: 'acme' }));

    const res = await invoke(get, asClient({ client_id: 'local-rotated' }));

    expect(res.statusCode).toBe(200);
  });

  it('takes nothing but exactly "true": any other value is the deployed behaviour', async () => {
    process.env[ENV.tenantsFromClientIds] = '1';
    withoutAlias('local-typo');

    const res = await invoke(get, asClient({ client_id: 'local-typo' }));

    expect(res.statusCode).toBe(403);
  });

  it('still answers 401 unauthorized to a token without client_id', async () => {
    process.env[ENV.tenantsFromClientIds] = 'true';

    const res = await invoke(get, asClient({ sub: 'local-sub-only' }));

    expect(res.statusCode).toBe(401);
    expect(res.body.error_code).toBe('unauthorized');
  });
});
