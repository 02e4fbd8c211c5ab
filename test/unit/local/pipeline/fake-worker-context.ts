import { Availability } from '#lib/local/availability';
import type { WorkerContext } from '#lib/local/background-worker';
import type { LambdaInvoker } from '#lib/local/lambda-invoker';
import { silentLog } from '#lib/local/log';

/** A worker context whose invoker calls `handler` directly, whatever the function; the table is up unless `availability` says otherwise. */
export const fakeWorkerContext = (
  handler: (event: any) => unknown,
  availability: Availability = new Availability(),
): WorkerContext => ({
  tableName: 't',
  table: {},
  dynamoEndpoint: 'http://127.0.0.1:1',
  availability,
  invoker: { invoke: async (_fn: unknown, event: unknown) => handler(event) } as unknown as LambdaInvoker,
  log: silentLog,
});
