import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TIMEOUT_MS } from '#domain/webhook-delivery';
import type { LocalRuntime } from '#lib/local/runtime';
import { setDependencies } from '#shared/dependencies';
import { DnsWebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';
import { api, startTestRuntime } from '../harness';
import { startReceiver } from './receiver';

/**
 * Where a delivery connects and what it takes from the receiver, end to end through the
 * local runtime and the real transport (receivers on loopback only).
 */
let runtime: LocalRuntime;
let carol: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ pipelineTimings: { queueTimeScale: 1 / 1800, queueDelayTimeScale: 1 / 100_000 } });
  carol = api(runtime, await runtime.mintToken('tenant-carol'));
  expect((await carol.post('/webhooks/secret', {})).status).toBe(200);
});
afterAll(() => runtime?.stop());

/** Subscribes carol's tenant to every event at `url`, sends a test event, and returns the configuration's id. */
async function configureAndInvoke(url: string): Promise<string> {
  const configured = await carol.post('/webhooks/configurations', {
    url,
    event_types: ['subscribe_all'],
    enabled: true,
  });
  expect(configured.status).toBe(200);
  expect((await carol.post('/webhooks/invoke', { event_type: 'person_verified' })).status).toBe(201);
  return configured.body.webhook_configuration.id as string;
}

async function removeConfiguration(id: string): Promise<void> {
  expect((await carol.delete(`/webhooks/configurations/${id}`)).status).toBe(204);
}

describe('webhook delivery connection', () => {
  it('connects to the address the URL check approved, not to a second DNS answer (DNS rebinding)', async () => {
    // 127.0.0.2 plays the public address the check is answered; 127.0.0.1, where the
    // system's own DNS sends `localhost`, plays the private address a rebinding DNS server
    // answers the connection's lookup with. Same port on both.
    const checked = await startReceiver(() => 204, { host: '127.0.0.2' });
    const rebound = await startReceiver(() => 204, { host: '127.0.0.1', port: checked.port });
    setDependencies({
      webhookUrlPolicy: new DnsWebhookUrlPolicy({ allowLoopbackHttp: true, resolve: async () => ['127.0.0.2'] }),
    });
    try {
      const id = await configureAndInvoke(`http://localhost:${checked.port}/rebind`);
      await runtime.settle();
      await removeConfiguration(id);

      expect(rebound.received).toHaveLength(0);
      expect(checked.at('/rebind')).toHaveLength(1);
      expect(checked.at('/rebind')[0]?.headers.host).toBe(`localhost:${checked.port}`);
    } finally {
      setDependencies({ webhookUrlPolicy: undefined });
      await checked.close();
      await rebound.close();
    }
  });

  it('records the status of a receiver whose answer never ends at once, without reading the body', async () => {
    const receiver = await startReceiver((_path, n) => (n === 1 ? { status: 200, bodyBytes: Infinity } : 204));
    try {
      const id = await configureAndInvoke(receiver.url('/endless'));
      await runtime.settle();
      await removeConfiguration(id);

      const eventId = receiver.at('/endless')[0]?.headers['webhook-id'];
      const event = await carol.get(`/events/${eventId}`);
      const attempts = event.body.event.attempts.filter((a: { url: string }) => a.url.endsWith('/endless'));
      // One attempt, taken with the status: a transport that read the body would have been
      // cut at the deadline, without one.
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ status_code: 200 });
      expect(attempts[0].latency_ms).toBeLessThan(DELIVERY_TIMEOUT_MS);
      expect(receiver.at('/endless')[0]?.answerComplete).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('does not read a 256 MB answer whole: the receiver cannot send it all', async () => {
    const bodyBytes = 256 * 1024 * 1024;
    const receiver = await startReceiver(() => ({ status: 200, bodyBytes }));
    try {
      const id = await configureAndInvoke(receiver.url('/huge'));
      await runtime.settle();
      await removeConfiguration(id);

      const [request] = receiver.at('/huge');
      expect(request?.answerComplete).toBe(false);
      expect(request?.answerBytesSent).toBeLessThan(bodyBytes / 4);
    } finally {
      await receiver.close();
    }
  });
});
