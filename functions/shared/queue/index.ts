import { SQSClient } from '@aws-sdk/client-sqs';
import { port } from '#shared/dependencies';
import type { MessageQueue } from './message-queue';
import { SqsMessageQueue } from './sqs-queue';

/** SQS in AWS; the local runtime puts its in-process queues here. */
export const messageQueue = /* @__PURE__ */ port('queue', () => new SqsMessageQueue(new SQSClient({})));

declare module '#shared/dependencies' {
  interface Dependencies {
    queue: MessageQueue;
  }
}
