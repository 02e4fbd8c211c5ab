import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type BucketPolicy, type Take, take } from '#domain/token-bucket';
import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { isConditionFailure } from './conditions';
import { ENTITY } from './entities';
import { keys } from './keys';
import { TABLE_SCHEMA } from './schema';

/** Races lost to the tenant's other requests before a request is refused as over the limit. */
const RACE_RETRIES = 3;

/**
 * Each tenant's token bucket (docs/api.md#rate-limits): one item, read consistently and
 * written back on condition that no other request wrote it meanwhile — one read and one
 * write per request. A request that keeps losing that race is refused with `Retry-After: 1`:
 * a tenant whose requests contend that hard is at its burst anyway.
 */
export class RateLimitRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(tenant: string, policy: BucketPolicy, now: Date): Promise<Take> {
    const key = keys.rateBucket(tenant);
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
      const stored = out.Item && { tokens: Number(out.Item.tokens), atMs: Number(out.Item.at_ms) };
      const result = take(stored, policy, now.getTime());
      if (!result.allowed) return result;
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...key,
              entity: ENTITY.rateBucket,
              version: 1,
              tenant,
              tokens: result.next.tokens,
              at_ms: result.next.atMs,
              // An idle tenant's bucket is full again after burst / rate seconds; a day is plenty.
              [TABLE_SCHEMA.ttlAttribute]: Math.ceil(now.getTime() / 1000) + 86_400,
            },
            ConditionExpression: stored ? 'at_ms = :previous' : 'attribute_not_exists(pk)',
            ExpressionAttributeValues: stored ? { ':previous': stored.atMs } : undefined,
          }),
        );
        return result;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return { allowed: false, retryAfterSeconds: 1 };
  }
}

/** The tenants' token buckets on the service's table; tests may replace them. */
export const rateLimits = port('rateLimits', () => new RateLimitRepository(documentClient(), tableName()));
