import { Duration, Names, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, type IEventSourceDlq, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import {
  CONSUMERS,
  type ConsumerDefinition,
  type ConsumerSource,
  QUEUE_SETTINGS,
  type QueueSettings,
  streamFilterPattern,
} from '#lib/service/index';
import type { DataKeyPurpose } from '#shared/data-key/index';
import type { QueueId } from '#shared/queue/message-queue';
import type { AlarmTopic } from './alarms';
import type { BankBinding } from './bank-secrets';
import type { CipherKey } from './cipher-key';
import { ConsumerFunction } from './consumer-function';
import type { DataKey } from './data-key';
import type { DataTable } from './data-table';
import type { EmailSenderSettings } from './email-sender';
import { DeadLetterStore, WorkQueue } from './queue';

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

export interface EventPipelineProps {
  /** Repository root: handler paths are relative to it. */
  readonly projectRoot: string;
  readonly dataTable: DataTable;
  readonly cipherKey: CipherKey;
  /** Every data key of the service, by purpose, for consumers whose row holds one (`digestKey`, `fieldKey`). */
  readonly dataKeys: Readonly<Record<DataKeyPurpose, DataKey>>;
  /** Where every dead-letter and failure alarm notifies. */
  readonly alarms: AlarmTopic;
  /**
   * The consumers, one function each.
   * @default CONSUMERS from lib/service/
   */
  readonly consumers?: readonly ConsumerDefinition[];
  /**
   * One work queue (with its dead-letter queue) per entry.
   * @default QUEUE_SETTINGS from lib/service/
   */
  readonly queueSettings?: Readonly<Record<QueueId, QueueSettings>>;
  /**
   * Sender of account-holder emails, for consumers that `sendsEmail`.
   * @default - none: no SES permission, emails are skipped
   */
  readonly emailSender?: EmailSenderSettings;
  /**
   * The bank, for consumers whose row calls it (`bank`).
   * @default - the sandbox bank
   */
  readonly bank?: BankBinding;
  /**
   * Further environment variables by consumer id, for deployment settings (CDK context)
   * that only some consumers' code reads, e.g. `{ IdentificationWorker: { DEFAULT_KYC_MODE:
   * 'byo' } }`. The consumer rows stay free of deployment values, and each function gets
   * only the variables its code reads. Every id must name a consumer: synthesis fails
   * otherwise, so a renamed consumer cannot silently lose its settings.
   * @default - none
   */
  readonly consumerEnvironment?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * The asynchronous side of the service, built from `QUEUE_SETTINGS` and `CONSUMERS`
 * alone (a new consumer row needs no change here):
 * - one `WorkQueue` per queue id, each with a dead-letter queue and an alarm on it, both
 *   encrypted with the table's storage key;
 * - one `ConsumerFunction` per consumer, fed by its source:
 *   - `table-stream`: an event source mapping on the table stream with the row's filters,
 *     batch size and retries, from the trim horizon, bisecting failing batches, reporting
 *     partial batch failures, and sending what still fails to an on-failure queue
 *     (encrypted with the storage key, alarmed);
 *   - `queue`: an SQS event source mapping reporting partial batch failures (the queue's
 *     redrive policy dead-letters what keeps failing);
 *   - `schedule`: an EventBridge rule (cron, UTC) whose target retries delivery and then
 *     dead-letters the event (alarmed).
 * Mappings are wired directly, with grants written out (`DataTable.streamReadStatements`,
 * `WorkQueue.grantConsumeMessages`, `DeadLetterStore.grantSendMessages`): CDK's event
 * source classes would add KMS actions no mapping needs (`kms:DescribeKey`,
 * `kms:ReEncrypt*`, `kms:GenerateDataKey*`, `kms:Encrypt`). Errors and throttles of every
 * function are alarmed by `ServiceAlarms`.
 */
export class EventPipeline extends Construct {
  /** The work queues, by queue id. */
  readonly queues: ReadonlyMap<QueueId, WorkQueue>;
  /** The consumer functions, by consumer id. */
  readonly consumers: ReadonlyMap<string, ConsumerFunction>;
  /** Each table-stream consumer's on-failure destination, by consumer id. */
  readonly onFailure: ReadonlyMap<string, DeadLetterStore> = new Map();
  /** Each scheduled consumer's rule, by consumer id. */
  readonly schedules: ReadonlyMap<string, Rule> = new Map();
  /** Each scheduled consumer's dead-letter queue for undeliverable runs, by consumer id. */
  readonly scheduleDeadLetters: ReadonlyMap<string, DeadLetterStore> = new Map();

  private readonly alarms: AlarmTopic;

  constructor(scope: Construct, id: string, props: EventPipelineProps) {
    super(scope, id);
    this.alarms = props.alarms;

    const queues = new Map<QueueId, WorkQueue>();
    for (const [queueId, settings] of Object.entries(props.queueSettings ?? QUEUE_SETTINGS) as [
      QueueId,
      QueueSettings,
    ][]) {
      queues.set(
        queueId,
        new WorkQueue(this, `${settings.name}Queue`, { settings, alarms: props.alarms, key: props.dataTable.key }),
      );
    }
    this.queues = queues;

    const consumers = new Map<string, ConsumerFunction>();
    const consumerOfQueue = new Map<QueueId, string>();
    const rows = props.consumers ?? CONSUMERS;
    const unknown = Object.keys(props.consumerEnvironment ?? {}).filter((id) => !rows.some((c) => c.id === id));
    if (unknown.length > 0) throw new Error(`consumerEnvironment names unknown consumers: ${unknown.join(', ')}`);
    for (const consumer of rows) {
      if (consumers.has(consumer.id)) throw new Error(`consumer "${consumer.id}" is listed twice`);
      if (consumer.source.kind === 'queue') {
        const other = consumerOfQueue.get(consumer.source.queue);
        if (other) throw new Error(`queue "${consumer.source.queue}" has two consumers: ${other} and ${consumer.id}`);
        consumerOfQueue.set(consumer.source.queue, consumer.id);
      }
      const fn = new ConsumerFunction(this, consumer.id, {
        consumer,
        projectRoot: props.projectRoot,
        dataTable: props.dataTable,
        cipherKey: props.cipherKey,
        dataKeys: props.dataKeys,
        queues,
        emailSender: props.emailSender,
        bank: props.bank ?? { settings: { provider: 'sandbox' } },
        environment: props.consumerEnvironment?.[consumer.id],
      });
      this.connectSource(fn, consumer.source, props.dataTable);
      consumers.set(consumer.id, fn);
    }
    this.consumers = consumers;
  }

  private connectSource(fn: ConsumerFunction, source: ConsumerSource, dataTable: DataTable): void {
    switch (source.kind) {
      case 'table-stream':
        this.connectStream(fn, source, dataTable);
        break;
      case 'queue':
        this.connectQueue(fn, source);
        break;
      case 'schedule':
        this.connectSchedule(fn, source);
        break;
    }
  }

  private connectStream(
    fn: ConsumerFunction,
    source: Extract<ConsumerSource, { kind: 'table-stream' }>,
    dataTable: DataTable,
  ): void {
    const id = fn.consumer.id;
    const onFailure = new DeadLetterStore(fn, 'OnFailure', {
      alarms: this.alarms,
      // Its messages only locate stream records, but those records are personal data.
      key: dataTable.key,
      description: `Table stream batches that ${id} could not process after ${source.maxRetryAttempts} retries or within ${STREAM_MAX_RECORD_AGE.toHumanString()}. Each message names the shard and sequence numbers; read the records from the stream (kept 24 h) or the table and replay them.`,
      notRedriveTarget: `the on-failure destination of ${id}'s table stream event source mapping`,
    });
    mutable(this.onFailure).set(id, onFailure);
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
  }

  private connectQueue(fn: ConsumerFunction, source: Extract<ConsumerSource, { kind: 'queue' }>): void {
    const { consumer } = fn;
    const workQueue = this.queues.get(source.queue);
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

  private connectSchedule(fn: ConsumerFunction, source: Extract<ConsumerSource, { kind: 'schedule' }>): void {
    const id = fn.consumer.id;
    const deadLetters = new DeadLetterStore(fn, 'ScheduleDeadLetters', {
      alarms: this.alarms,
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
    mutable(this.schedules).set(id, rule);
    mutable(this.scheduleDeadLetters).set(id, deadLetters);
  }
}

/** The maps above are read-only to users of the construct, filled while it is built. */
const mutable = <K, V>(map: ReadonlyMap<K, V>): Map<K, V> => map as Map<K, V>;

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
