import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '#shared/webhook-transport/http-transport';
import { startReceiver } from '#test/integration/webhooks/receiver';

/**
 * The webhook transport against real receivers on loopback. Host names are never looked up
 * here: the transport connects to the addresses it is handed (the URL check's), so a name
 * no DNS knows reaches the loopback receiver it was approved for.
 */
const tls = (file: string) => readFileSync(new URL(`tls/${file}`, import.meta.url), 'utf8');
/** A throw-away authority and a certificate for hooks.example.com it signed (tests only; valid until 2126). */
const TEST_CA = tls('ca.pem');

const transport = new HttpTransport({ ca: TEST_CA });
const HEADERS = { 'content-type': 'application/json', 'webhook-id': 'msg_1' };
const vetted = (url: string, addresses: string[]) => ({ url: new URL(url), addresses });

describe('the webhook transport: where it connects', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let receiverV6: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver(() => 204);
    receiverV6 = await startReceiver(() => 202, { host: '::1' });
  });
  afterAll(async () => {
    await receiver.close();
    await receiverV6.close();
  });

  it('connects to the approved address, not to what the host name resolves to, and sends the URL’s host, path and query', async () => {
    const target = vetted(`http://hooks.unresolvable.invalid:${receiver.port}/orum?x=1`, ['127.0.0.1']);

    const result = await transport.post(target, HEADERS, '{"a":1}', 2_000);

    expect(result).toMatchObject({ status: 204 });
    const [request] = receiver.at('/orum?x=1');
    expect(request?.headers).toMatchObject({
      host: `hooks.unresolvable.invalid:${receiver.port}`,
      'webhook-id': 'msg_1',
      'content-type': 'application/json',
      'content-length': '7',
    });
    expect(request?.body).toBe('{"a":1}');
  });

  it('connects over IPv6 when the approved address is IPv6', async () => {
    const target = vetted(`http://hooks.unresolvable.invalid:${receiverV6.port}/v6`, ['::1']);

    expect(await transport.post(target, HEADERS, '{}', 2_000)).toMatchObject({ status: 202 });
    expect(receiverV6.at('/v6')).toHaveLength(1);
  });

  it('fails the attempt rather than look a name up when it has no approved address', async () => {
    const target = vetted(`http://localhost:${receiver.port}/none`, []);

    expect(await transport.post(target, HEADERS, '{}', 2_000)).toMatchObject({ error: 'connection failed' });
    expect(receiver.at('/none')).toHaveLength(0);
  });
});

describe('the webhook transport: TLS', () => {
  let server: HttpsServer;
  let port: number;
  const serverNames: (string | false | null)[] = [];
  beforeAll(async () => {
    server = createHttpsServer(
      { cert: tls('hooks.example.com.pem'), key: tls('hooks.example.com.key.pem') },
      (q, r) => {
        serverNames.push((q.socket as TLSSocket).servername);
        q.resume();
        q.on('end', () => r.writeHead(200).end());
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('checks the certificate against the URL’s host name, sent as SNI, while connecting to the approved address', async () => {
    const target = vetted(`https://hooks.example.com:${port}/orum`, ['127.0.0.1']);

    expect(await transport.post(target, HEADERS, '{}', 2_000)).toMatchObject({ status: 200 });
    expect(serverNames).toEqual(['hooks.example.com']);
  });

  it('refuses a certificate that does not name the URL’s host', async () => {
    const target = vetted(`https://other.example.com:${port}/orum`, ['127.0.0.1']);

    expect(await transport.post(target, HEADERS, '{}', 2_000)).toMatchObject({ error: 'connection failed' });
  });

  it('refuses a certificate from an authority it does not trust (Node’s bundled roots by default)', async () => {
    const target = vetted(`https://hooks.example.com:${port}/orum`, ['127.0.0.1']);

    expect(await new HttpTransport().post(target, HEADERS, '{}', 2_000)).toMatchObject({ error: 'connection failed' });
  });
});

describe('the webhook transport: what it takes from the answer', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((path) => {
      if (path === '/redirect') return 302;
      if (path === '/hang') return 'hang';
      if (path === '/endless') return { status: 200, bodyBytes: Infinity };
      return { status: 500, bodyBytes: 400 * 1024 * 1024 };
    });
  });
  afterAll(() => receiver.close());
  const at = (path: string) => vetted(`http://127.0.0.1:${receiver.port}${path}`, ['127.0.0.1']);

  it('does not follow a redirect: the 3xx is the answer', async () => {
    expect(await transport.post(at('/redirect'), HEADERS, '{}', 2_000)).toMatchObject({ status: 302 });
    expect(receiver.received.map((r) => r.path)).not.toContain('/elsewhere');
  });

  it('keeps the status of an answer whose body never ends, at once, and hangs up without reading it', async () => {
    const result = await transport.post(at('/endless'), HEADERS, '{}', 5_000);

    // A transport that waited for the body's end would have been cut at the 5 s deadline, with no status.
    expect(result).toMatchObject({ status: 200 });
    await expect.poll(() => receiver.at('/endless')[0]?.answerBytesSent).toBeGreaterThan(0);
    expect(receiver.at('/endless')[0]?.answerComplete).toBe(false);
  });

  it('keeps the status of a 400 MB answer without reading it: the receiver gets only what socket buffers hold out', async () => {
    const result = await transport.post(at('/huge'), HEADERS, '{}', 5_000);

    expect(result).toMatchObject({ status: 500 });
    // Give the receiver time to write whatever the closed connection would still take.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.at('/huge')[0]?.answerComplete).toBe(false);
    expect(receiver.at('/huge')[0]?.answerBytesSent).toBeLessThan(16 * 1024 * 1024);
  });

  it('cuts the whole attempt at the deadline when no answer comes', async () => {
    const result = await transport.post(at('/hang'), HEADERS, '{}', 300);

    // Only the deadline ends an attempt the receiver never answers (how late its timer fires is the machine's).
    expect(result).toMatchObject({ error: 'no answer within 300 ms' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
  });
});
