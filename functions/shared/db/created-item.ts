import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { CreatedIdTaken } from '#shared/created-id';
import { InternalError, UnprocessableError } from '#shared/errors';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency/window';
import { type ItemKey, REQUEST_FINGERPRINT } from './items';

// A create whose conditional put found its id taken, when the id was made from an
// `Idempotency-Key` (#shared/created-id): the item under it is what an earlier attempt of
// the same request made (its answer lost on the way back), another request's under the same
// key, or an item made with the key more than its 24 h ago. The item keeps the creating
// request's keyed fingerprint (`request_fingerprint`, never returned) to tell them apart.

/**
 * The item to answer for a create whose id `item` holds: itself when an earlier attempt of
 * the request of `fingerprint` made it within the key's 24 h. Throws `CreatedIdTaken` when
 * the key is older (or the item has gone since: either way a new request, under a random
 * id), and `idempotency_key_reused` when another request made it.
 */
export function earlierAttempt(
  item: Record<string, unknown> | undefined,
  fingerprint: string,
  now: Date,
): Record<string, unknown> {
  const createdAt = Date.parse(String(item?.created_at));
  if (!item || !(now.getTime() - createdAt < IDEMPOTENCY_WINDOW_MS)) throw new CreatedIdTaken();
  if (item[REQUEST_FINGERPRINT] !== fingerprint) {
    throw new UnprocessableError('idempotency_key_reused', 'this Idempotency-Key was used with another request');
  }
  return item;
}

/**
 * What a create whose put found its id taken answers: `earlierAttempt` of the item under
 * `key`, read strongly consistent. Without a `fingerprint` the id was random, so a taken one
 * is a collision nobody can answer for (`what` names the item in the error).
 */
export async function readEarlierAttempt(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: ItemKey,
  request: { readonly fingerprint: string | undefined; readonly now: Date; readonly what: string },
): Promise<Record<string, unknown>> {
  if (request.fingerprint === undefined) throw new InternalError(`${request.what} id collision`);
  const out = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return earlierAttempt(out.Item, request.fingerprint, request.now);
}
