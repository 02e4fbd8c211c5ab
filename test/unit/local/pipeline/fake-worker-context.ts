import type { WorkerContext } from '#lib/local/background-worker';
import type { LambdaInvoker } from '#lib/local/lambda-invoker';
import { silentLog } from '#lib/local/log';

/** A worker context whose invoker calls `handler` directly, whatever the function. */
export const fakeWorkerContext = (handler: (event: any) => unknown): WorkerContext => ({
  tableName: 't',
  table: {},
  dynamoEndpoint: 'http://127.0.0.1:1',
  invoker: { invoke: async (_fn: unknown, event: unknown) => handler(event) } as unknown as LambdaInvoker,
  log: silentLog,
});
