/**
 * The service's queues, as functions know them: a name and the environment variable that
 * carries its URL. Infrastructure settings (visibility timeout, retries, dead-letter queue)
 * live beside the consumers in lib/service/.
 */
export const QUEUES = {
  /** New verify accounts waiting for the bank. */
  verification: { envVar: 'VERIFICATION_QUEUE_URL' },
  /** Accounts whose statement code was just sent: the holder is to be emailed. */
  statementCodeEmails: { envVar: 'STATEMENT_CODE_EMAILS_QUEUE_URL' },
  /** Persons to identify, and rejected persons waiting for their automatic retry (delayed). */
  identification: { envVar: 'IDENTIFICATION_QUEUE_URL' },
  /** Screening-list names whose verified persons must be screened again (list changes, daily). */
  screening: { envVar: 'SCREENING_QUEUE_URL' },
  /** One message per (event, configuration): a delivery attempt and, delayed, its retries. */
  webhookDeliveries: { envVar: 'WEBHOOK_DELIVERIES_QUEUE_URL' },
} as const;

export type QueueId = keyof typeof QUEUES;

export interface QueueMessage {
  /** Unique within one send call; reported back when that message fails. */
  id: string;
  body: unknown;
  delaySeconds?: number;
}

/** A message and the queue it is for: what the stream router holds until the end of a batch. */
export interface AddressedMessage {
  queue: QueueId;
  message: QueueMessage;
}

/** Sends messages to one of the service's queues; throws unless every message was accepted. */
export interface MessageQueue {
  send(queue: QueueId, messages: QueueMessage[]): Promise<void>;
}
