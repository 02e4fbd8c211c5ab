import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type BucketPolicy, type Take, TokenLeases, take } from '#domain/token-bucket';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { keys } from '../keys';
import { TABLE_SCHEMA } from '../schema';

/** Refills lost to the tenant's other requests before a request is refused as over the limit. */
const REFILL_RACES = 3;

/**
 * Each tenant's token bucket (docs/api.md#rate-limits), one item. Taking tokens is one
 * atomic conditional update (`tokens >= :k`), so concurrent requests of a tenant never
 * refuse each other while tokens remain. A busy warm container takes several at once and
 * serves the next requests of that tenant from memory (`TokenLeases`), so the bucket item
 * takes a fraction of the tenant's request rate in writes. Only an empty bucket is
 * refilled: a consistent read and a put on condition that nobody refilled it meanwhile,
 * adding what the rate earned since the last refill, capped at the burst. Refilling lazily
 * keeps the long-run rate exact; a burst right after an idle period may reach up to twice
 * `burst` (the tokens left before the refill are not capped away).
 */
export class RateLimitRepository {
  /** This container's leased tokens: the repository lives as long as the warm container. */
  private readonly leases = new TokenLeases();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(tenant: string, policy: BucketPolicy, now: Date): Promise<Take> {
    const at = now.getTime();
    const allowed: Take = { allowed: true, next: { tokens: 0, atMs: at } };
    const size = this.leases.demand(tenant, policy, at);
    if (this.leases.useLeased(tenant, at)) return allowed;
    const key = keys.rateBucket(tenant);
    if (size > 1) {
      if (await this.takeTokens(key, size)) {
        this.leases.lease(tenant, size - 1, at);
        return allowed;
      }
      this.leases.bucketLow(tenant, at);
    }
    for (let attempt = 0; attempt < REFILL_RACES; attempt++) {
      if (await this.takeTokens(key, 1)) return allowed;
      // Tokens another request of this container leased while this one waited.
      if (this.leases.useLeased(tenant, at)) return allowed;
      const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
      const stored = out.Item && { tokens: Number(out.Item.tokens), atMs: Number(out.Item.at_ms) };
      const result = take(stored, policy, at);
      if (!result.allowed) return this.leases.useLeased(tenant, at) ? allowed : result;
      if (await this.refill(tenant, key, stored, result.next, now)) return result;
      // Another request refilled it first: take from its refill.
    }
    return { allowed: false, retryAfterSeconds: 1 };
  }

  private async takeTokens(key: { pk: string; sk: string }, count: number): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET tokens = tokens - :k',
          ConditionExpression: 'tokens >= :k',
          ExpressionAttributeValues: { ':k': count },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Stores the refilled bucket (the request's token already taken) unless another request changed it first. */
  private async refill(
    tenant: string,
    key: { pk: string; sk: string },
    previous: { tokens: number; atMs: number } | undefined,
    next: { tokens: number; atMs: number },
    now: Date,
  ): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...key,
            entity: ENTITY.rateBucket,
            version: 1,
            tenant,
            tokens: next.tokens,
            at_ms: next.atMs,
            // An idle tenant's bucket is full again after burst / rate seconds; a day is plenty.
            [TABLE_SCHEMA.ttlAttribute]: Math.ceil(now.getTime() / 1000) + 86_400,
          },
          // Unchanged since it was read: neither refilled nor taken from by another request.
          ConditionExpression: previous ? 'at_ms = :at AND tokens = :tokens' : 'attribute_not_exists(pk)',
          ExpressionAttributeValues: previous ? { ':at': previous.atMs, ':tokens': previous.tokens } : undefined,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
