import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { type ConsumerDefinition, type ConsumerSource, dataKeysOf } from '#lib/service/index';
import type { DataKeyPurpose } from '#shared/data-key/index';
import type { QueueId } from '#shared/queue/message-queue';
import type { BankBinding } from './bank-secrets';
import type { CipherKey } from './cipher-key';
import type { DataKey } from './data-key';
import type { DataTable } from './data-table';
import type { EmailSenderSettings } from './email-sender';
import type { IdentityVendorBinding } from './provider-binding';
import type { WorkQueue } from './queue';
import { ServiceFunction } from './service-function';

/** What a consumer's function is described as in the Lambda console: its id and its source. */
export function consumerDescription(consumer: Pick<ConsumerDefinition, 'id' | 'source'>): string {
  return `${consumer.id}: ${sourceLabel(consumer.source)}`;
}

function sourceLabel(source: ConsumerSource): string {
  switch (source.kind) {
    case 'table-stream':
      return 'table stream';
    case 'queue':
      return `${source.queue} queue`;
    case 'schedule':
      return `schedule cron(${source.cron.minute} ${source.cron.hour} * * ? *) UTC`;
  }
}

export interface ConsumerFunctionProps {
  /** The consumer's row of `CONSUMERS`. */
  readonly consumer: ConsumerDefinition;
  /** Repository root: the consumer's handler path is relative to it. */
  readonly projectRoot: string;
  readonly dataTable: DataTable;
  readonly cipherKey: CipherKey;
  /** Every data key of the service, by purpose: the consumer gets those its row holds. */
  readonly dataKeys: Readonly<Record<DataKeyPurpose, DataKey>>;
  /** Every work queue of the service, by id. */
  readonly queues: ReadonlyMap<QueueId, WorkQueue>;
  /** The email sender, when one is configured. */
  readonly emailSender?: EmailSenderSettings;
  /** The bank, for a consumer whose row calls it (`bank`). */
  readonly bank: BankBinding;
  /** The identity vendor, for a consumer whose row calls it (`identityVendor`). */
  readonly identityVendor: IdentityVendorBinding;
  /**
   * Further environment variables: deployment settings that this consumer's code reads
   * (see `EventPipelineProps.consumerEnvironment`).
   * @default - none
   */
  readonly environment?: Readonly<Record<string, string>>;
}

/**
 * The function of one consumer row (`CONSUMERS` in lib/service/): the house defaults of
 * `ServiceFunction` with the row's timeout, and exactly the access the row declares:
 * the table (`table`), the cipher key (`cipher`), the data keys (`digestKey`, `fieldKey`), the bank (`bank`), sending to each queue of `sendsTo`,
 * and SES when it `sendsEmail` and a sender is configured; plus the deployment settings
 * given in `environment`. What feeds it (stream, queue,
 * schedule) is wired by `EventPipeline`.
 */
export class ConsumerFunction extends ServiceFunction {
  readonly consumer: ConsumerDefinition;

  constructor(scope: Construct, id: string, props: ConsumerFunctionProps) {
    const { consumer } = props;
    super(scope, id, {
      entry: join(props.projectRoot, consumer.handler),
      projectRoot: props.projectRoot,
      description: consumerDescription(consumer),
      timeout: Duration.seconds(consumer.timeoutSeconds),
      bundling: consumer.bundling,
      dataKeys: dataKeysOf(consumer).map((purpose) => props.dataKeys[purpose]),
      bank: consumer.bank ? { binding: props.bank, access: consumer.bank } : undefined,
      identityVendor: consumer.identityVendor
        ? { binding: props.identityVendor, access: consumer.identityVendor }
        : undefined,
    });
    this.consumer = consumer;
    this.bindTable(props.dataTable, consumer.table, { actsForOneTenant: consumer.crossTenant === undefined });
    this.bindCipherKey(props.cipherKey, consumer.cipher);
    for (const queueId of consumer.sendsTo ?? []) {
      const workQueue = props.queues.get(queueId);
      if (!workQueue) throw new Error(`consumer "${consumer.id}" sends to unknown queue "${queueId}"`);
      this.sendsTo(queueId, workQueue);
    }
    if (consumer.sendsEmail) this.bindEmailSender(props.emailSender);
    for (const [name, value] of Object.entries(props.environment ?? {})) this.addEnvironment(name, value);
  }
}
