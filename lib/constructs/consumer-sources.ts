import { Duration, Names, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, type IEventSourceDlq, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { type ConsumerSource, streamFilterPattern } from '#lib/service/index';
import type { QueueId } from '#shared/queue/message-queue';
import type { ConsumerFunction } from './consumer-function';
import type { DataTable } from './data-table';
import { DeadLetterStore, type WorkQueue } from './queue';

// How a consumer function is fed by the source its row names (EventPipeline joins them):
// a table stream, a work queue or a schedule. Each builds its parts inside the function's
// own construct, so their logical ids derive from the consumer's id.

/**
 * A queue's visibility timeout must be at least this many times its consumer's timeout
 * (AWS's advice for Lambda event sources): a batch that is still being worked on, or
 * retried after a throttle, must not become visible to a second invocation meanwhile.
 */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

/**
 * How old a stream record may get before the stream router gives up on it and sends its
 * description to the on-failure destination. The table stream keeps records 24 h anyway.
 */
export const STREAM_MAX_RECORD_AGE = Duration.days(1);

/**
 * Delivery of a scheduled run to its function: EventBridge retries this often within
 * this time, then puts the event into the schedule's dead-letter queue.
 */
export const SCHEDULE_RETRY = { attempts: 4, maxEventAge: Duration.hours(2) } as const;

/**
 * Feeds `fn` from the table stream: an event source mapping with the row's filters, batch
 * size and retries, and an on-failure queue (encrypted with the storage key, alarmed),
 * which it returns.
 */
export function connectStream(
  fn: ConsumerFunction,
  source: Extract<ConsumerSource, { kind: 'table-stream' }>,
  dataTable: DataTable,
): DeadLetterStore {
  const id = fn.consumer.id;
  const onFailure = new DeadLetterStore(fn, 'OnFailure', {
    // Its messages only locate stream records, but those records are personal data.
    key: dataTable.key,
    description: `Table stream batches that ${id} could not process after ${source.maxRetryAttempts} retries or within ${STREAM_MAX_RECORD_AGE.toHumanString()}. Each message names the shard and sequence numbers; read the records from the stream (kept 24 h) or the table and replay them.`,
    notRedriveTarget: `the on-failure destination of ${id}'s table stream event source mapping`,
  });
  // The construct id CDK's DynamoEventSource uses, so the mapping keeps its logical id.
  fn.addEventSourceMapping(`DynamoDBEventSource:${Names.nodeUniqueId(dataTable.table.node)}`, {
    eventSourceArn: dataTable.table.tableStreamArn,
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: source.batchSize,
    parallelizationFactor: source.parallelizationFactor,
    filters: source.filters.map((filter) => FilterCriteria.filter(streamFilterPattern(filter))),
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    retryAttempts: source.maxRetryAttempts,
    maxRecordAge: STREAM_MAX_RECORD_AGE,
    onFailure: onFailureDestination(onFailure),
  });
  for (const statement of dataTable.streamReadStatements()) fn.addToRolePolicy(statement);
  Validations.of(fn.role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Besides X-Ray (no resource-level permissions), the event source mapping needs dynamodb:ListStreams, which supports no resource-level permissions either (granted on "*" as AWS\'s AWSLambdaDynamoDBExecutionRole does); it only lists stream ARNs. Reading records (DescribeStream, GetShardIterator, GetRecords) is limited to this table\'s stream. No other statement of this role uses "*" (asserted in test/infra).',
  });
  return onFailure;
}

/** Feeds `fn` from its work queue, whose visibility timeout must outlast its batches. */
export function connectQueue(
  fn: ConsumerFunction,
  source: Extract<ConsumerSource, { kind: 'queue' }>,
  queues: ReadonlyMap<QueueId, WorkQueue>,
): void {
  const { consumer } = fn;
  const workQueue = queues.get(source.queue);
  if (!workQueue) throw new Error(`consumer "${consumer.id}" reads unknown queue "${source.queue}"`);
  const minimum = VISIBILITY_TIMEOUT_FACTOR * consumer.timeoutSeconds;
  if (workQueue.settings.visibilityTimeoutSeconds < minimum) {
    throw new Error(
      `queue "${source.queue}": visibility timeout ${workQueue.settings.visibilityTimeoutSeconds} s is below ${VISIBILITY_TIMEOUT_FACTOR} × the ${consumer.timeoutSeconds} s timeout of its consumer ${consumer.id} (at least ${minimum} s)`,
    );
  }
  // The construct id CDK's SqsEventSource uses, so the mapping keeps its logical id.
  fn.addEventSourceMapping(`SqsEventSource:${Names.nodeUniqueId(workQueue.queue.node)}`, {
    eventSourceArn: workQueue.queue.queueArn,
    batchSize: source.batchSize,
    maxConcurrency: source.maxConcurrency,
    reportBatchItemFailures: true,
  });
  workQueue.grantConsumeMessages(fn);
}

/**
 * Runs `fn` on its schedule: an EventBridge rule whose target retries delivery and then
 * dead-letters the event (alarmed). Returns the rule and that dead-letter queue.
 */
export function connectSchedule(
  fn: ConsumerFunction,
  source: Extract<ConsumerSource, { kind: 'schedule' }>,
): { rule: Rule; deadLetters: DeadLetterStore } {
  const id = fn.consumer.id;
  const deadLetters = new DeadLetterStore(fn, 'ScheduleDeadLetters', {
    description: `Scheduled runs of ${id} that EventBridge could not deliver to the function. Run it by hand (aws lambda invoke) once the cause is fixed.`,
    notRedriveTarget: `the dead-letter queue of ${id}'s EventBridge schedule target`,
  });
  const rule = new Rule(fn, 'Schedule', {
    schedule: Schedule.cron({ minute: source.cron.minute, hour: source.cron.hour }),
    description: `Runs ${id} (UTC)`,
  });
  rule.addTarget(
    new LambdaTarget(fn, {
      deadLetterQueue: deadLetters.queue,
      retryAttempts: SCHEDULE_RETRY.attempts,
      maxEventAge: SCHEDULE_RETRY.maxEventAge,
    }),
  );
  // EventBridge invokes asynchronously: its DLQ only catches runs it could not hand to
  // Lambda. A run that fails inside the function is retried by Lambda (twice) and shows
  // only in the function's Errors metric, alarmed by ServiceAlarms (an async on-failure
  // destination would need sqs:SendMessage in the function's role, which it otherwise
  // does not have). Every scheduled job is a sweep that the next run repeats, so nothing
  // is lost meanwhile.
  return { rule, deadLetters };
}

/**
 * A stream mapping's on-failure destination. Lambda sends there with the function's role;
 * the store grants exactly that (send, and its key's `queue-send` use).
 */
function onFailureDestination(store: DeadLetterStore): IEventSourceDlq {
  return {
    bind: (_mapping, fn) => {
      store.grantSendMessages(fn);
      return { destination: store.queue.queueArn };
    },
  };
}
