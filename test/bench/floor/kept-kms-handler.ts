import { KMSClient } from '@aws-sdk/client-kms';
import { keptFloorHandler } from './kept';

/** The kept floor (./kept.ts) of a function holding a data key: the KMS client too, made at start as a key's holder makes it. */
export const kms = new KMSClient({});
export const handler = keptFloorHandler();
