import { KMSClient } from '@aws-sdk/client-kms';
import { SQSClient } from '@aws-sdk/client-sqs';
import { keptFloorHandler } from './kept';

/** The kept floor (./kept.ts) of a function holding a data key that sends to a queue: both clients. */
export const kms = new KMSClient({});
export const sqs = new SQSClient({});
export const handler = keptFloorHandler();
