import { afterAll, beforeAll } from 'vitest';
import type { LogLevel } from '#lib/local/log';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '#test/integration/harness';
import { OutageInvoker } from '#test/support/dead-letters';

/** What a dead-letter test works with: the runtime, its invoker, its log lines and a partner. */
export interface OutageRuntime {
  readonly invoker: OutageInvoker;
  /** Every line the runtime logged, in order (a test may empty it). */
  readonly logged: { level: LogLevel; message: string }[];
  runtime: LocalRuntime;
  partner: ReturnType<typeof api>;
}

/**
 * A runtime for the file's tests on an `OutageInvoker` (a function taken down fails as a
 * crashed one would), without screening lists, keeping what it logs, and a partner of
 * `tenant`; stopped after the file.
 */
export function useOutageRuntime(tenant: string): OutageRuntime {
  const invoker = new OutageInvoker();
  const logged: OutageRuntime['logged'] = [];
  const env = { invoker, logged } as OutageRuntime;
  beforeAll(async () => {
    env.runtime = await startTestRuntime({
      invoker,
      screeningLists: false,
      log: (level, message) => logged.push({ level, message }),
    });
    env.partner = api(env.runtime, await env.runtime.mintToken(tenant));
  });
  afterAll(() => env.runtime?.stop());
  return env;
}
