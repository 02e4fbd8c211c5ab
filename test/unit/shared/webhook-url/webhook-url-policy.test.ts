import { describe, expect, it } from 'vitest';
import { SchemeOnlyWebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';

describe('the temporary webhook URL policy (scheme only)', () => {
  const aws = new SchemeOnlyWebhookUrlPolicy({ allowLoopbackHttp: false });
  const local = new SchemeOnlyWebhookUrlPolicy({ allowLoopbackHttp: true });

  it('accepts https everywhere', async () => {
    expect(await aws.check('https://hooks.example.com/x')).toEqual({ ok: true });
    expect(await local.check('https://hooks.example.com/x')).toEqual({ ok: true });
  });

  it('refuses http in AWS mode, even on loopback', async () => {
    expect(await aws.check('http://127.0.0.1:8080/x')).toEqual({ ok: false, reason: 'must use https' });
    expect(await aws.check('http://hooks.example.com/x')).toMatchObject({ ok: false });
  });

  it('accepts http on loopback addresses only when allowed (local runtime)', async () => {
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://[::1]:9000/x', 'http://127.1.2.3/x']) {
      expect(await local.check(url), url).toEqual({ ok: true });
    }
    expect(await local.check('http://hooks.example.com/x')).toMatchObject({ ok: false });
    expect(await local.check('http://10.0.0.1/x')).toMatchObject({ ok: false });
  });
});
