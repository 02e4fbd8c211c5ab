import { afterAll, beforeAll, expect } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { setDependencies } from '#shared/dependencies';
import { DnsWebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';
import { approvingUrlPolicy } from '#test/support/fakes';
import { api, startTestRuntime } from '../harness';

/** A runtime for the whole test file (no pipeline) with clients for two tenants. */
export function useWebhooksRuntime() {
  const env = {} as { runtime: LocalRuntime; alice: ReturnType<typeof api>; bob: ReturnType<typeof api> };
  beforeAll(async () => {
    env.runtime = await startTestRuntime({ consumers: [], screeningLists: false });
    useTestDns();
    env.alice = api(env.runtime, await env.runtime.mintToken('tenant-alice'));
    env.bob = api(env.runtime, await env.runtime.mintToken('tenant-bob'));
  });
  afterAll(() => env.runtime?.stop());
  return env;
}

export const configurationBody = (over: Record<string, unknown> = {}) => ({
  url: 'https://hooks.example.com/orum',
  event_types: ['person_all'],
  enabled: true,
  ...over,
});

/** Tests talk to loopback only: `*.example.com` resolves to a public address, nothing else resolves. */
export const testResolve = async (host: string): Promise<string[]> =>
  host.endsWith('.example.com') ? ['93.184.216.34'] : host === 'localhost' ? ['127.0.0.1'] : [];

/** The runtime's URL policy (local mode), with the test resolver instead of the network's DNS. */
export const useTestDns = (allowLoopbackHttp = true) =>
  setDependencies({ webhookUrlPolicy: new DnsWebhookUrlPolicy({ allowLoopbackHttp, resolve: testResolve }) });

/** What a partner's endpoint received: one entry per webhook POST. */
export interface RecordedWebhook {
  url: string;
  eventId: string;
  body: string;
}

/**
 * Subscribes the client's tenant to every event (a signing secret and a `subscribe_all`
 * configuration) and records each webhook POST instead of sending it, answering 204: what
 * the partner receives, observed without a network. Call after the runtime has started;
 * every tenant subscribed this way shares one record (event ids tell them apart).
 */
export async function recordWebhooks(client: ReturnType<typeof api>): Promise<RecordedWebhook[]> {
  setDependencies({
    webhookUrlPolicy: approvingUrlPolicy,
    webhookTransport: {
      post: async (target, headers, body) => {
        received.push({ url: target.url.href, eventId: headers['webhook-id'] ?? '', body });
        return { status: 204, latencyMs: 1 };
      },
    },
  });
  expect((await client.post('/webhooks/secret', {})).status).toBe(200);
  const configured = await client.post(
    '/webhooks/configurations',
    configurationBody({ event_types: ['subscribe_all'] }),
  );
  expect(configured.status).toBe(200);
  return received;
}

const received: RecordedWebhook[] = [];
