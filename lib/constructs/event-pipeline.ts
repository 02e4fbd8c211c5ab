import type { Rule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import {
  CONSUMERS,
  type ConsumerDefinition,
  type ConsumerSource,
  QUEUE_SETTINGS,
  type QueueSettings,
} from '#lib/service/index';
import type { DataKeyPurpose } from '#shared/data-key/index';
import type { QueueId } from '#shared/queue/message-queue';
import type { BankBinding } from './bank-secrets';
import type { CipherKey } from './cipher-key';
import { ConsumerFunction } from './consumer-function';
import { connectQueue, connectSchedule, connectStream } from './consumer-sources';
import type { DataKey } from './data-key';
import type { DataTable } from './data-table';
import type { EmailSenderSettings } from './email-sender';
import type { IdentityVendorBinding } from './provider-binding';
import { type DeadLetterStore, WorkQueue } from './queue';

export interface EventPipelineProps {
  /** Repository root: handler paths are relative to it. */
  readonly projectRoot: string;
  readonly dataTable: DataTable;
  readonly cipherKey: CipherKey;
  /** Every data key of the service, by purpose, for consumers whose row holds one (`digestKey`, `fieldKey`). */
  readonly dataKeys: Readonly<Record<DataKeyPurpose, DataKey>>;
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
   * The identity vendor, for consumers whose row calls it (`identityVendor`).
   * @default - the sandbox vendor
   */
  readonly identityVendor?: IdentityVendorBinding;
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
 * - one `WorkQueue` per queue id, each with a dead-letter queue, both encrypted with the
 *   table's storage key;
 * - one `ConsumerFunction` per consumer, fed by its source (./consumer-sources.ts):
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
 * `kms:ReEncrypt*`, `kms:GenerateDataKey*`, `kms:Encrypt`). Every dead-letter store, and the
 * errors and throttles of every function, are alarmed by `ServiceAlarms` in the monitoring
 * nested stack (lib/stack/monitoring.ts), which reads them from here.
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

  constructor(scope: Construct, id: string, props: EventPipelineProps) {
    super(scope, id);

    const queues = new Map<QueueId, WorkQueue>();
    for (const [queueId, settings] of Object.entries(props.queueSettings ?? QUEUE_SETTINGS) as [
      QueueId,
      QueueSettings,
    ][]) {
      queues.set(queueId, new WorkQueue(this, `${settings.name}Queue`, { settings, key: props.dataTable.key }));
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
        identityVendor: props.identityVendor ?? { settings: { vendor: 'sandbox' } },
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
        mutable(this.onFailure).set(fn.consumer.id, connectStream(fn, source, dataTable));
        break;
      case 'queue':
        connectQueue(fn, source, this.queues);
        break;
      case 'schedule': {
        const { rule, deadLetters } = connectSchedule(fn, source);
        mutable(this.schedules).set(fn.consumer.id, rule);
        mutable(this.scheduleDeadLetters).set(fn.consumer.id, deadLetters);
        break;
      }
    }
  }
}

/** The maps above are read-only to users of the construct, filled while it is built. */
const mutable = <K, V>(map: ReadonlyMap<K, V>): Map<K, V> => map as Map<K, V>;
