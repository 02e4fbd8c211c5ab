import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as create } from '#functions/verify-accounts/handlers/create';
import { handler as get } from '#functions/verify-accounts/handlers/get';
import {
  ACCOUNT_ID,
  createEvent,
  ddb,
  getEvent,
  useHandlerHarness,
  validCreateBody,
  verificationWrites,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

const harness = useHandlerHarness();

describe('per-tenant rate limit (every route)', () => {
  it('answers 429 too_many_requests with Retry-After in the contract’s shape when the tenant’s bucket is empty, and does nothing', async () => {
    harness.rateLimits.refusals = [7];

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body).toMatchObject({
      error_code: 'too_many_requests',
      details: { retry_after_seconds: 7 },
      request_id: expect.any(String),
    });
    expect(verificationWrites()).toHaveLength(0);
  });

  it('takes a token of the tenant the token names, on reads too', async () => {
    await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'partner-a' } }));
    await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'partner-b' } }));
    expect(harness.rateLimits.taken).toEqual(['partner-a', 'partner-b']);
  });

  it('reads a tenant’s own rate from its settings once, then from the cache', async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'TENANT#partner-c', sk: 'SETTINGS' } })
      .resolves({ Item: { rate_per_second: 1, burst: 1 } });
    await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'partner-c' } }));
    await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'partner-c' } }));
    expect(ddb.commandCalls(GetCommand, { Key: { pk: 'TENANT#partner-c', sk: 'SETTINGS' } })).toHaveLength(1);
  });
});
