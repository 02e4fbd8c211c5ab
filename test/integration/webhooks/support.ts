import { afterAll, beforeAll } from 'vitest';
import type { LocalRuntime } from '../../../lib/local/runtime';
import { api, startTestRuntime } from '../harness';

/** A runtime for the whole test file (no pipeline) with clients for two tenants. */
export function useWebhooksRuntime() {
  const env = {} as { runtime: LocalRuntime; alice: ReturnType<typeof api>; bob: ReturnType<typeof api> };
  beforeAll(async () => {
    env.runtime = await startTestRuntime({ consumers: [], screeningLists: false });
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
