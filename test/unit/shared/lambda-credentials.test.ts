import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '#shared/lambda-credentials';

afterEach(() => vi.unstubAllEnvs());

describe('the bundles’ credential provider', () => {
  it('gives the credentials Lambda puts in the environment, session token included', async () => {
    vi.stubEnv('AWS_PROFILE', '');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');
    await expect(defaultProvider()()).resolves.toMatchObject({
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
  });

  it('fails without them rather than looking anywhere else', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toThrow();
  });
});
