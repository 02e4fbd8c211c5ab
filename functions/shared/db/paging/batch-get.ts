import { BatchGetCommand, type BatchGetCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InternalError } from '#shared/errors';
import { type ItemKey, keyOf } from '../items';

/** BatchGetItem takes at most 100 keys per call. */
export const BATCH_GET_LIMIT = 100;
/** Rounds of retrying unprocessed keys before giving up (backoff 50 ms … 1 s). */
const BATCH_GET_ROUNDS = 8;

/**
 * The items of `itemKeys`, in that order (BatchGet answers in any order); keys whose item
 * is gone drop out. Unprocessed keys are retried with backoff a bounded number of times.
 */
export async function batchGetInOrder(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: readonly ItemKey[],
): Promise<Record<string, unknown>[]> {
  const byKey = new Map<string, Record<string, unknown>>();
  const id = (key: ItemKey) => `${key.pk}|${key.sk}`;
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_LIMIT) {
    let request: Record<string, unknown>[] | undefined = itemKeys.slice(i, i + BATCH_GET_LIMIT).map((k) => ({ ...k }));
    for (let round = 0; request && request.length > 0; round++) {
      if (round === BATCH_GET_ROUNDS) throw new InternalError('table kept throttling the page read');
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** round)));
      const out: BatchGetCommandOutput = await db.send(
        // Eventually consistent, like the index the keys came from: half the read units.
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: request } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) byKey.set(id(keyOf(item)), item);
      request = out.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return itemKeys.flatMap((key): Record<string, unknown>[] => {
    const item = byKey.get(id(key));
    return item ? [item] : [];
  });
}
