import { SQSClient } from '@aws-sdk/client-sqs';
import { keptFloorHandler } from './kept';

/** The kept floor (./kept.ts) of a function that sends to a queue: the SQS client too. */
export const sqs = new SQSClient({});
export const handler = keptFloorHandler();
