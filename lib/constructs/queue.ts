import { Duration, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueSettings } from '../service';
import type { AlarmTopic } from './alarms';

/**
 * How long a dead letter is kept: SQS's maximum, so there are two weeks to look at it
 * and redrive it. Longer than any source queue's retention, as SQS requires for standard
 * queues (a message keeps its original enqueue time when it moves).
 */
export const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * How long a work message waits for its consumer: a week, so a consumer that is down (or
 * not deployed yet) over a long weekend loses nothing; still shorter than the dead-letter
 * retention.
 */
export const WORK_QUEUE_RETENTION = Duration.days(7);

/**
 * Every queue of the service is encrypted at rest with SQS-managed keys (SSE-SQS) and
 * refuses requests without TLS. SSE-SQS rather than a customer-managed KMS key: messages
 * carry only a tenant and record ids (the records, and the SSNs/tax ids encrypted under
 * the `CipherKey`, stay in the table), and a KMS key would add kms:GenerateDataKey /
 * kms:Decrypt to every producer's and consumer's role, and a KMS call to their requests,
 * without protecting anything more.
 */
const QUEUE_DEFAULTS = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

export interface DeadLetterStoreProps {
  /** Where the alarm notifies. */
  readonly alarms: AlarmTopic;
  /** What ends up here, for the alarm's description. */
  readonly description: string;
  /**
   * The store is the destination of a Lambda event source mapping or an EventBridge target,
   * not a queue's redrive target (cdk-nag's SQS3 only recognises the latter): say which.
   * @default - it is some queue's redrive target
   */
  readonly notRedriveTarget?: string;
}

/**
 * A queue that keeps work which failed for good (a dead-letter queue, an event source's
 * on-failure destination, a schedule target's DLQ): kept 14 days, encrypted, TLS only,
 * and alarmed as soon as it holds a single message.
 */
export class DeadLetterStore extends Construct {
  readonly queue: Queue;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: DeadLetterStoreProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', { ...QUEUE_DEFAULTS, retentionPeriod: DEAD_LETTER_RETENTION });
    this.alarm = props.alarms.alarmWhenNotEmpty(this, 'NotEmpty', this.queue, props.description);
    if (props.notRedriveTarget) {
      Validations.of(this.queue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: `This queue is itself a dead-letter store (${props.notRedriveTarget}), kept 14 days and alarmed when not empty; a dead-letter queue of its own would only move the same failures one step further.`,
      });
    }
  }
}

export interface WorkQueueProps {
  readonly settings: QueueSettings;
  readonly alarms: AlarmTopic;
}

/**
 * One of the service's work queues (`QUEUE_SETTINGS`): visibility timeout from the
 * settings, a dead-letter queue after `maxReceiveCount` receives, and an alarm on that
 * dead-letter queue.
 */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetters: DeadLetterStore;
  readonly settings: QueueSettings;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    const { settings } = props;
    this.settings = settings;
    this.deadLetters = new DeadLetterStore(this, 'DeadLetters', {
      alarms: props.alarms,
      description: `Messages of the ${settings.name} queue that failed ${settings.maxReceiveCount} receives. Find the cause in the consumer's logs, then redrive them to the source queue.`,
    });
    this.queue = new Queue(this, 'Queue', {
      ...QUEUE_DEFAULTS,
      visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
      retentionPeriod: WORK_QUEUE_RETENTION,
      deadLetterQueue: { queue: this.deadLetters.queue, maxReceiveCount: settings.maxReceiveCount },
    });
  }
}
