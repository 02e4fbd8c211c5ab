import type { TableDescription } from '@aws-sdk/client-dynamodb';
import type { Availability } from './availability';
import type { LambdaInvoker } from './lambda-invoker';
import type { RuntimeLog } from './log';

// Extension point for everything that runs beside the HTTP gateway: the table-stream
// poller, in-process SQS queues, schedules. The runtime starts workers in order once the
// table exists and the handler environment is set, before it opens the HTTP port, and
// stops them in reverse order after the port is closed.

export interface WorkerContext {
  readonly tableName: string;
  /** Holds `LatestStreamArn`, which a stream poller reads from. */
  readonly table: TableDescription;
  readonly dynamoEndpoint: string;
  /** Whether the table answers: workers pause while it is down (a supervised DynamoDB Local restarting). */
  readonly availability: Availability;
  /** Runs consumer handler modules the way Lambda would (cold start, context, timeout). */
  readonly invoker: LambdaInvoker;
  readonly log: RuntimeLog;
}

export interface BackgroundWorker {
  /** For logs, e.g. `stream-router`. */
  readonly name: string;
  start(context: WorkerContext): Promise<void> | void;
  /** Must let an in-flight batch finish or give it up; the table goes away next. */
  stop(): Promise<void> | void;
}
