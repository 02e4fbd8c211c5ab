import { Duration, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueSettings } from '#lib/service/index';
import type { StorageKey } from './storage-key';

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
 * How long SQS reuses one data key of the storage key before asking KMS for a new one:
 * an hour (SQS allows 1 minute to 24 hours). Every producer and consumer role then calls
 * KMS about once an hour per queue instead of every 5 minutes (the default), at the price
 * of one data key protecting an hour of messages instead of five minutes'.
 */
export const DATA_KEY_REUSE = Duration.hours(1);

/**
 * How a queue is encrypted at rest. Every queue also refuses requests without TLS.
 *
 * The work queues, their dead-letter queues and the stream router's on-failure store use
 * the customer-managed `StorageKey` (SSE-KMS): their messages name tenants and records,
 * and the screening queue's carry a person's folded name; a dead letter keeps that for two
 * weeks. SSE-KMS makes every send and receive an authorised use of a key this account
 * controls and audits (CloudTrail), and nothing else can read them.
 *
 * A schedule's dead-letter queue stays on SQS-managed keys (SSE-SQS): it only ever holds
 * EventBridge's scheduled-event envelope (time, rule ARN, no data of ours), and SSE-KMS
 * there would need EventBridge itself in the storage key's policy.
 */
function encryptionOf(
  key: StorageKey | undefined,
): Pick<QueueProps, 'encryption' | 'encryptionMasterKey' | 'dataKeyReuse'> {
  return key
    ? { encryption: QueueEncryption.KMS, encryptionMasterKey: key.key, dataKeyReuse: DATA_KEY_REUSE }
    : { encryption: QueueEncryption.SQS_MANAGED };
}

/** The queue actions a producer needs (what CDK's `grantSendMessages` grants, without its KMS actions). */
const SEND_ACTIONS = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'] as const;

/** The queue actions a Lambda event source mapping needs (CDK's `grantConsumeMessages`, without KMS). */
const CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
] as const;

/**
 * A queue of the service and its key, with grants that name exactly what is needed: CDK's
 * own `grantSendMessages` would add `kms:Encrypt`, `kms:ReEncrypt*` and
 * `kms:GenerateDataKey*`, none of which SQS asks of a producer beyond `GenerateDataKey`.
 */
abstract class KeyedQueue extends Construct {
  abstract readonly queue: Queue;
  protected abstract readonly key: StorageKey | undefined;

  /** Send to the queue: SendMessage (and the attribute/URL reads SDKs make) and the key's `queue-send` use. */
  grantSendMessages(grantee: IGrantable): void {
    this.queue.grant(grantee, ...SEND_ACTIONS);
    if (this.key) grantee.grantPrincipal.addToPrincipalPolicy(this.key.statement('queue-send'));
  }

  /** Receive, delete and hide messages (a Lambda event source) and the key's `queue-receive` use. */
  grantConsumeMessages(grantee: IGrantable): void {
    this.queue.grant(grantee, ...CONSUME_ACTIONS);
    if (this.key) grantee.grantPrincipal.addToPrincipalPolicy(this.key.statement('queue-receive'));
  }
}

export interface DeadLetterStoreProps {
  /**
   * The key its messages are encrypted with (see `encryptionOf`).
   * @default - SSE-SQS: only for stores whose messages carry no data of the service
   */
  readonly key?: StorageKey;
  /** What ends up here and what to do about it: its alarm's description. */
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
 * on-failure destination, a schedule target's DLQ): kept 14 days, encrypted, TLS only.
 * Its alarm (as soon as it holds a single message) is built with the other alarms in the
 * monitoring nested stack (`ServiceAlarms`, lib/stack/monitoring.ts), from `description`.
 */
export class DeadLetterStore extends KeyedQueue {
  readonly queue: Queue;
  /** What ends up here and what to do about it: its alarm's description. */
  readonly description: string;
  protected readonly key: StorageKey | undefined;

  constructor(scope: Construct, id: string, props: DeadLetterStoreProps) {
    super(scope, id);
    this.key = props.key;
    this.description = props.description;
    this.queue = new Queue(this, 'Queue', {
      ...encryptionOf(props.key),
      enforceSSL: true,
      retentionPeriod: DEAD_LETTER_RETENTION,
    });
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
  /** The key the queue and its dead-letter queue are encrypted with. */
  readonly key: StorageKey;
}

/**
 * One of the service's work queues (`QUEUE_SETTINGS`): visibility timeout from the
 * settings and a dead-letter queue after `maxReceiveCount` receives (alarmed by
 * `ServiceAlarms`); both encrypted with the storage key.
 */
export class WorkQueue extends KeyedQueue {
  readonly queue: Queue;
  readonly deadLetters: DeadLetterStore;
  readonly settings: QueueSettings;
  protected readonly key: StorageKey;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    const { settings } = props;
    this.settings = settings;
    this.key = props.key;
    this.deadLetters = new DeadLetterStore(this, 'DeadLetters', {
      key: props.key,
      description: `Messages of the ${settings.name} queue that failed ${settings.maxReceiveCount} receives. Find the cause in the consumer's logs, then redrive them to the source queue.`,
    });
    this.queue = new Queue(this, 'Queue', {
      ...encryptionOf(props.key),
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(settings.visibilityTimeoutSeconds),
      retentionPeriod: WORK_QUEUE_RETENTION,
      deadLetterQueue: { queue: this.deadLetters.queue, maxReceiveCount: settings.maxReceiveCount },
    });
  }
}
