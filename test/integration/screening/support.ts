import { afterAll, beforeAll, expect } from 'vitest';
import type { LocalRuntime, LocalRuntimeOptions } from '#lib/local/runtime';
import { retryingClient } from '#test/support/retrying-client';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';

/**
 * A runtime for the whole test file with one tenant's client, which retries as partners do
 * (docs/api.md#retrying: a 503 from a dependency slowed by a busy machine is sent again with
 * its Idempotency-Key), and `identified`: a person
 * created through the API (`personBody` with `over`), its status and reason codes once
 * identification has run.
 */
export function useScreeningRuntime(tenant: string, options: Partial<LocalRuntimeOptions> = {}) {
  const env = {} as { runtime: LocalRuntime; call: ReturnType<typeof retryingClient> };
  beforeAll(async () => {
    process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '60';
    env.runtime = await startTestRuntime(options);
    env.call = retryingClient(api(env.runtime, await env.runtime.mintToken(tenant)));
  }, 600_000);
  afterAll(() => env.runtime?.stop());

  async function identified(over: Record<string, unknown>) {
    const response = await env.call.post('/persons', personBody(over));
    expect(response.status).toBe(200);
    await env.runtime.settle();
    const person = (await env.call.get(`/persons/${response.body.person.id}`)).body.person;
    return {
      status: person.status,
      reasons: (person.status_reasons ?? []).map((r: { reason_code: string }) => r.reason_code),
    };
  }
  return { env, identified };
}
