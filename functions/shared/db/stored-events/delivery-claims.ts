import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { TABLE_SCHEMA } from '../schema';
import { type AttemptOf, eventKeys } from './keys';

/** How long a delivery claim is kept after its lease: a day, so the event's partition holds at most a day of them. */
const CLAIM_KEPT_MS = 86_400_000;

/**
 * Claims the sending of one attempt of one delivery for `holder` (the queue message that
 * carries it), until `leaseUntil`: true when no one else holds it, the holder already did
 * (the same message received again) or the lease of another has lapsed (its message died
 * and was redriven under a new id). Two copies of one delivery message handled at once
 * (a stream batch replayed) thus send the attempt once. The claim expires a day after its
 * lease; the event's partition holds at most a day of claims (docs/data-model.md).
 */
export async function claimDeliveryAttempt(
  db: DynamoDBDocumentClient,
  tableName: string,
  claim: {
    readonly tenant: string;
    readonly eventId: string;
    readonly attempt: AttemptOf;
    readonly holder: string;
    readonly now: Date;
    readonly leaseUntil: Date;
  },
): Promise<boolean> {
  const { tenant, eventId, attempt, holder, now, leaseUntil } = claim;
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...eventKeys.claim(tenant, eventId, attempt),
          entity: ENTITY.deliveryClaim,
          version: 1,
          holder,
          lease_until_ms: leaseUntil.getTime(),
          [TABLE_SCHEMA.ttlAttribute]: Math.ceil((leaseUntil.getTime() + CLAIM_KEPT_MS) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR holder = :holder OR lease_until_ms <= :now',
        ExpressionAttributeValues: { ':holder': holder, ':now': now.getTime() },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
