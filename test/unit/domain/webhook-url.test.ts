import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, type WebhookUrlOptions } from '#domain/webhook-url';

/** A resolver that answers from a table and records what it was asked. */
function fakeDns(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const addresses = answers[host];
    if (addresses === undefined) throw new Error(`ENOTFOUND ${host}`);
    return addresses;
  };
  return { asked, resolve };
}

const dns = fakeDns({
  'hooks.partner.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.partner.example': ['10.0.4.17'],
  'mixed.partner.example': ['93.184.215.14', '192.168.0.10'],
  'metadata.partner.example': ['169.254.169.254'],
  'mapped.partner.example': ['::ffff:10.0.0.1'],
  'nat64.partner.example': ['64:ff9b::a9fe:a9fe'],
  'ula.partner.example': ['fd00::5'],
  'v6.partner.example': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'empty.partner.example': [],
  localhost: ['127.0.0.1', '::1'],
  'dual.local.example': ['127.0.0.1', '93.184.215.14'],
});
const aws: WebhookUrlOptions = { allowLoopbackHttp: false, resolve: dns.resolve };
const local: WebhookUrlOptions = { allowLoopbackHttp: true, resolve: dns.resolve };

describe('checking a webhook URL in AWS', () => {
  it('accepts https to a host whose every address is public, and returns the addresses checked', async () => {
    const result = await checkWebhookUrl('https://hooks.partner.example/orum?x=1', aws);
    expect(result).toEqual({
      ok: true,
      url: new URL('https://hooks.partner.example/orum?x=1'),
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
  });

  it('accepts https to a public IP literal without resolving it', async () => {
    const { asked, resolve } = fakeDns({});
    expect(await checkWebhookUrl('https://93.184.215.14/hooks', { ...aws, resolve })).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('https://[2606:4700::1111]/hooks', { ...aws, resolve })).toMatchObject({ ok: true });
    expect(asked).toEqual([]);
  });

  it.each(['not a url', '/relative/path', 'https://', ''])('refuses %j, which is not an absolute URL', async (url) => {
    expect(await checkWebhookUrl(url, aws)).toEqual({ ok: false, reason: 'The URL is not a valid absolute URL.' });
  });

  it.each(['http://hooks.partner.example/', 'ftp://hooks.partner.example/', 'file:///etc/passwd', 'gopher://x/'])(
    'refuses %s, which is not https',
    async (url) => {
      expect(await checkWebhookUrl(url, aws)).toEqual({ ok: false, reason: 'The URL must use https.' });
    },
  );

  it('refuses plain http even to loopback', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:3000/', aws)).toEqual({
      ok: false,
      reason: 'The URL must use https.',
    });
  });

  it('refuses credentials in the URL without repeating them', async () => {
    const result = await checkWebhookUrl('https://admin:hunter2@hooks.partner.example/', aws);
    expect(result).toEqual({ ok: false, reason: 'The URL must not contain a user name or password.' });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it.each([
    ['internal.partner.example', 'private'],
    ['metadata.partner.example', 'cloud metadata'],
    ['mapped.partner.example', 'private'],
    ['nat64.partner.example', 'cloud metadata'],
    ['ula.partner.example', 'private'],
    ['localhost', 'loopback'],
  ])('refuses %s, whose DNS answer is %s', async (host, description) => {
    const result = await checkWebhookUrl(`https://${host}/hooks`, aws);
    expect(result).toEqual({
      ok: false,
      reason: `The URL’s host points at a ${description} address; webhooks go only to public addresses.`,
    });
  });

  it('refuses a host with one private address among public ones', async () => {
    expect(await checkWebhookUrl('https://mixed.partner.example/', aws)).toMatchObject({ ok: false });
  });

  it('accepts a host that resolves only to public IPv6', async () => {
    expect(await checkWebhookUrl('https://v6.partner.example/', aws)).toMatchObject({ ok: true });
  });

  it('refuses a host that resolves to nothing', async () => {
    expect(await checkWebhookUrl('https://empty.partner.example/', aws)).toEqual({
      ok: false,
      reason: 'The URL’s host name resolves to no address.',
    });
  });

  it('refuses a host that does not resolve', async () => {
    expect(await checkWebhookUrl('https://nowhere.partner.example/', aws)).toEqual({
      ok: false,
      reason: 'The URL’s host name could not be resolved.',
    });
  });

  it.each([
    'https://10.0.0.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:a00:1]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://[::]/',
    'https://0.0.0.0/',
    'https://100.64.1.1/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
  ])('refuses the IP literal host of %s', async (url) => {
    expect(await checkWebhookUrl(url, aws)).toMatchObject({ ok: false, reason: expect.stringContaining('points at') });
  });

  it.each([
    ['https://2130706433/', 'decimal', 'loopback'],
    ['https://0x7f.1/', 'hex', 'loopback'],
    ['https://0x7f000001/', 'hex', 'loopback'],
    ['https://0177.0.0.1/', 'octal', 'loopback'],
    ['https://127.1/', 'short', 'loopback'],
    ['https://0xA9.0xFE.0xA9.0xFE/', 'hex', 'cloud metadata'],
    ['https://025177524776/', 'octal', 'cloud metadata'],
  ])('refuses %s, a %s spelling of a %s address, without resolving it', async (url, _spelling, description) => {
    const { asked, resolve } = fakeDns({});
    expect(await checkWebhookUrl(url, { ...aws, resolve })).toEqual({
      ok: false,
      reason: `The URL’s host points at a ${description} address; webhooks go only to public addresses.`,
    });
    expect(asked).toEqual([]);
  });

  it.each([
    'https://hooks.partner.example:8443/orum',
    'https://hooks.partner.example:80/orum',
    'https://93.184.215.14:22/',
    'https://[2606:4700::1111]:8080/',
  ])('refuses %s, whose port is not 443', async (url) => {
    expect(await checkWebhookUrl(url, aws)).toEqual({ ok: false, reason: 'The URL’s port must be 443 (https’s own).' });
  });

  it('accepts port 443 written out, which is the https default', async () => {
    expect(await checkWebhookUrl('https://hooks.partner.example:443/orum', aws)).toMatchObject({ ok: true });
  });

  it('never repeats the URL’s path or query in a reason', async () => {
    const result = await checkWebhookUrl('https://internal.partner.example/hooks?token=s3cr3t', aws);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toMatch(/s3cr3t|internal\.partner/);
  });
});

describe('checking a webhook URL in the local runtime', () => {
  it('accepts plain http to a host that resolves only to loopback', async () => {
    expect(await checkWebhookUrl('http://localhost:4000/hooks', local)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hooks', local)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://[::1]:4000/hooks', local)).toMatchObject({ ok: true });
  });

  it('refuses plain http to a public host', async () => {
    expect(await checkWebhookUrl('http://hooks.partner.example/', local)).toEqual({
      ok: false,
      reason: 'Plain http is allowed only to a loopback host; use https.',
    });
  });

  it('refuses plain http to a host that resolves to loopback and a public address', async () => {
    expect(await checkWebhookUrl('http://dual.local.example/', local)).toMatchObject({ ok: false });
  });

  it('accepts https to loopback or public addresses', async () => {
    expect(await checkWebhookUrl('https://localhost:4443/', local)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('https://dual.local.example/', local)).toMatchObject({ ok: true });
  });

  it('accepts any port on a host that resolves only to loopback, and only 443 elsewhere', async () => {
    expect(await checkWebhookUrl('https://localhost:4443/', local)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://[::1]:8080/', local)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('https://hooks.partner.example:8443/', local)).toEqual({
      ok: false,
      reason: 'The URL’s port must be 443 (https’s own); locally, a loopback receiver may use any port.',
    });
    expect(await checkWebhookUrl('https://dual.local.example:8443/', local)).toMatchObject({ ok: false });
  });

  it('still refuses private and metadata addresses', async () => {
    expect(await checkWebhookUrl('https://internal.partner.example/', local)).toEqual({
      ok: false,
      reason: 'The URL’s host points at a private address; webhooks go only to public or loopback addresses.',
    });
    expect(await checkWebhookUrl('http://169.254.169.254/', local)).toMatchObject({ ok: false });
  });
});
