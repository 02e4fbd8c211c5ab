import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// The one place handlers get their AWS clients and ports from. Which implementation is
// used follows from configuration alone (e.g. `AWS_ENDPOINT_URL_DYNAMODB` points the SDK
// at DynamoDB Local), so handlers never know which mode they run in. Tests and the local
// runtime replace any of them with `setDependencies`.
//
// Each port is declared next to its implementations (`cipher/index.ts`, `queue/index.ts`,
// `db/verify-accounts/index.ts`, …) with `port(name, factory)`, so a function bundles only
// the clients it uses. Repositories are ports too: a use case asks `verifyAccounts()` for
// its repository and never constructs one. Each port also adds its entry to this interface
// there (`declare module '#shared/dependencies'`), so this file imports none of the modules
// that import it: no import cycle runs through it.

/** Every dependency by name: its port's value type (each port adds its own entry). */
export interface Dependencies {
  documentClient: DynamoDBDocumentClient;
  now: () => Date;
}

type Name = keyof Dependencies;
const overrides: Partial<Dependencies> = {};
const cache: Partial<Dependencies> = {};

/**
 * Declares a dependency and returns its getter: the override if one is set, else the
 * (cached) default. Mark each call with the bundler's pure-call annotation, as every port
 * of the service is: declaring does nothing until the getter is called, and the annotation
 * lets esbuild drop a port that a function never calls, with everything its factory
 * imports (esbuild cannot tell on its own that the call has no side effects).
 *
 * @example
 * // functions/shared/queue/index.ts: the port, and its entry in `Dependencies`
 * export const messageQueue = /* @__PURE__ *\/ port('queue', () => new SqsMessageQueue(new SQSClient({})));
 *
 * declare module '#shared/dependencies' {
 *   interface Dependencies {
 *     queue: MessageQueue;
 *   }
 * }
 *
 * // functions/screening/handlers/screening-worker.ts: a use asks the getter, never a constructor
 * await messageQueue().send('screening', [{ id: `shard-${message.shard}`, body }]);
 */
export function port<K extends Name>(name: K, factory: () => Dependencies[K]): () => Dependencies[K] {
  return () => {
    const override = overrides[name];
    if (override !== undefined) return override as Dependencies[K];
    cache[name] ??= factory();
    return cache[name] as Dependencies[K];
  };
}

/** The clock; tests pin it. */
export const clock = /* @__PURE__ */ port('now', () => () => new Date());
export const now = (): Date => clock()();

/** Replace dependencies (tests, local runtime). Pass `undefined` to restore the default. */
export function setDependencies(values: Partial<Dependencies>): void {
  for (const [key, value] of Object.entries(values) as [Name, never][]) {
    if (value === undefined) delete overrides[key];
    else overrides[key] = value;
  }
}

/** Forget overrides and cached clients (tests that change the environment between cases). */
export function resetDependencies(): void {
  for (const key of Object.keys(overrides) as Name[]) delete overrides[key];
  for (const key of Object.keys(cache) as Name[]) delete cache[key];
}
