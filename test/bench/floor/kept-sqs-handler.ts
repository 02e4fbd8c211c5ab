import { SQSClient } from '@aws-sdk/client-sqs';
import { keptFloorHandler } from './kept';

// A kept floor (./kept.ts) with the SQS client.

export const sqs = new SQSClient({});
export const handler = keptFloorHandler();
