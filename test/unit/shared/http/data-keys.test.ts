import { afterEach, describe, expect, it } from 'vitest';
import { handler as get } from '#functions/verify-accounts/handlers/get';
import { ENV } from '#shared/config';
import { setDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';
import { ACCOUNT_ID, ERROR_BODY_KEYS, getEvent, useHandlerHarness } from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

/**
 * An HTTP function loads its data keys (digest key, field key) inside the middleware stack,
 * after the error mapper: a key that cannot be loaded (KMS throttled or down on a cold
 * start) is the service's own 500 in the contract's shape, with the request id, never API
 * Gateway's bare "Internal Server Error" of a function that threw.
 */
useHandlerHarness();

afterEach(() => {
  delete process.env[ENV.digestKeyCiphertext];
});

describe('data keys on the HTTP stack', () => {
  it('answers 500 internal_server_error in the contract shape, with the request id, when a data key cannot be loaded', async () => {
    process.env[ENV.digestKeyCiphertext] = Buffer.from('the ciphertext').toString('base64');
    setDependencies({ digestKey: new DigestKey(() => Promise.reject(new Error('KMS is unavailable'))) });

    const answer = await invoke(get, getEvent(ACCOUNT_ID));

    expect(answer.statusCode).toBe(500);
    expect(Object.keys(answer.body).sort()).toEqual([...ERROR_BODY_KEYS].filter((k) => k !== 'details').sort());
    expect(answer.body).toMatchObject({ error_code: 'internal_server_error' });
    expect(answer.body.request_id).toEqual(expect.any(String));
    expect(JSON.stringify(answer.body)).not.toContain('KMS');
  });
});
