import { describe, expect, it } from 'vitest';
import { DnsWebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';

describe('the webhook URL policy', () => {
  const answers: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34'],
    'inside.example.com': ['10.0.0.7'],
  };
  const resolve = async (host: string) => answers[host] ?? [];
  const aws = new DnsWebhookUrlPolicy({ allowLoopbackHttp: false, resolve });
  const local = new DnsWebhookUrlPolicy({ allowLoopbackHttp: true, resolve });

  it('accepts https to a public address, and returns the addresses it checked for the delivery to connect to', async () => {
    expect(await aws.check('https://hooks.example.com/orum')).toEqual({
      ok: true,
      url: new URL('https://hooks.example.com/orum'),
      addresses: ['93.184.216.34'],
    });
  });

  it('refuses a host whose DNS answer is private, and http outside the local runtime', async () => {
    expect((await aws.check('https://inside.example.com/x')).ok).toBe(false);
    expect((await aws.check('http://hooks.example.com/x')).ok).toBe(false);
    expect((await aws.check('http://127.0.0.1:9000/x')).ok).toBe(false);
  });

  it('accepts http to loopback in the local runtime only', async () => {
    expect(await local.check('http://127.0.0.1:9000/x')).toEqual({
      ok: true,
      url: new URL('http://127.0.0.1:9000/x'),
      addresses: ['127.0.0.1'],
    });
    expect((await local.check('http://inside.example.com/x')).ok).toBe(false);
  });
});
