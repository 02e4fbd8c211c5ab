import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type FieldOwner, openFields, sealFields } from '#shared/field-cipher/index';
import { isConditionFailure } from '../conditions';
import { ENTITY, keys } from '../keys';
import { TABLE_SCHEMA } from '../schema';
import type { TransactUpdate } from './kept-answer';
import { IDEMPOTENCY_WINDOW_MS } from './window';

/** A response as API Gateway takes it, kept to replay it. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'in_progress'; fingerprint: string; lockedUntil: Date }
  | { state: 'completed'; fingerprint: string; response: StoredResponse };

// Literals, not products: esbuild keeps an unused product at the top of a module, and so
// would carry this module into bundles that never claim a key (GET routes). The window
// is in ./window.ts, which the accounts' repository reads too (#shared/created-id).
export { IDEMPOTENCY_WINDOW_MS };
/** A claim older than this (60 s) is abandoned (its Lambda timed out) and may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 60_000;

export interface IdempotencyScope {
  tenant: string;
  /** Route key, e.g. `POST /verify/accounts`. */
  route: string;
  key: string;
}

export class IdempotencyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Claims the key for this request, or says what holds it. */
  async claim(scope: IdempotencyScope, fingerprint: string, now: Date): Promise<IdempotencyClaim> {
    const t = now.getTime();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(scope),
            entity: ENTITY.idempotency,
            version: 1,
            status: 'in_progress',
            fingerprint,
            locked_until_ms: t + IDEMPOTENCY_LOCK_MS,
            expires_at_ms: t + IDEMPOTENCY_WINDOW_MS,
            [TABLE_SCHEMA.ttlAttribute]: Math.ceil((t + IDEMPOTENCY_WINDOW_MS) / 1000),
          },
          // TTL deletes lazily, so expiry is checked here rather than trusted to TTL.
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at_ms <= :now OR (#status = :in_progress AND locked_until_ms <= :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': t, ':in_progress': 'in_progress' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { state: 'claimed' };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const old = (error as { Item?: Record<string, unknown> }).Item;
      if (!old) throw error;
      const held = unmarshallLoose(old);
      if (held.status === 'completed') {
        return {
          state: 'completed',
          fingerprint: String(held.fingerprint),
          response: this.opened(scope, JSON.parse(String(held.response))),
        };
      }
      return {
        state: 'in_progress',
        fingerprint: String(held.fingerprint),
        lockedUntil: new Date(Number(held.locked_until_ms)),
      };
    }
  }

  /**
   * The record completed with `response`, as an Update for the transaction of the work the
   * response answers for (./kept-answer.ts), on condition that the claim made at `claimedAt`
   * still holds the key: a claim that lapsed and was taken over writes nothing.
   */
  completion(scope: IdempotencyScope, claimedAt: Date, response: StoredResponse): TransactUpdate {
    return {
      TableName: this.tableName,
      Key: this.key(scope),
      UpdateExpression: 'SET #status = :completed, #response = :response',
      ConditionExpression: HELD,
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':response': JSON.stringify(this.sealed(scope, response)),
        ...heldBy(claimedAt),
      },
    };
  }

  /**
   * Completes the key with `response`, on condition that the claim made at `claimedAt` still
   * holds it (as `completion`). A request whose claim lapsed and was taken over, or was
   * released, writes nothing: the key is another request's, or free, and a record written
   * now would lack the fingerprint and expiry that only a claim writes.
   */
  async complete(scope: IdempotencyScope, claimedAt: Date, response: StoredResponse): Promise<void> {
    await this.unlessTakenOver(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(scope),
        UpdateExpression: 'SET #status = :completed, #response = :response',
        ConditionExpression: HELD,
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':response': JSON.stringify(this.sealed(scope, response)),
          ...heldBy(claimedAt),
        },
      }),
    );
  }

  /**
   * Frees the key after a failure the caller may retry (5xx), if the claim made at
   * `claimedAt` still holds it: a completed key, or one another request holds now, stays.
   */
  async release(scope: IdempotencyScope, claimedAt: Date): Promise<void> {
    await this.unlessTakenOver(
      new DeleteCommand({
        TableName: this.tableName,
        Key: this.key(scope),
        ConditionExpression: HELD,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: heldBy(claimedAt),
      }),
    );
  }

  /** Sends a write conditioned on `HELD`; a failed condition means the key is not this request's any more. */
  private async unlessTakenOver(command: UpdateCommand | DeleteCommand): Promise<void> {
    try {
      await this.db.send(command);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  private key(scope: IdempotencyScope) {
    return keys.idempotency(scope.tenant, scope.route, scope.key);
  }

  /**
   * The response as kept: the account numbers its body carries (an account route's answer)
   * sealed under the field key, bound to the tenant and this record
   * (docs/data-model.md#field-encryption); any other body is kept byte for byte.
   */
  private sealed(scope: IdempotencyScope, response: StoredResponse): StoredResponse {
    return { ...response, body: mapBody(response.body, (body) => sealFields(body, this.owner(scope), 'response')) };
  }

  /** A kept response with its sealed values opened, to replay it as first answered. */
  private opened(scope: IdempotencyScope, response: StoredResponse): StoredResponse {
    return { ...response, body: mapBody(response.body, (body) => openFields(body, this.owner(scope), 'response')) };
  }

  private owner(scope: IdempotencyScope): FieldOwner {
    const { pk, sk } = this.key(scope);
    return { tenant: scope.tenant, record: `${pk}/${sk}` };
  }
}

/** A JSON body through `map`; the very string when it is no JSON or `map` changes nothing. */
function mapBody(body: string, map: (parsed: unknown) => unknown): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const mapped = map(parsed);
  return mapped === parsed ? body : JSON.stringify(mapped);
}

/**
 * `ReturnValuesOnConditionCheckFailure` hands back the old item in DynamoDB's wire format
 * even through the document client; only string and number attributes are read here.
 */
function unmarshallLoose(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(item).map(([k, v]) => {
      const wire = v as { S?: string; N?: string } | undefined;
      if (wire && typeof wire === 'object' && ('S' in wire || 'N' in wire)) {
        return [k, wire.S ?? Number(wire.N)];
      }
      return [k, v];
    }),
  );
}

/** The condition that the claim named by `heldBy` still holds the key: in progress, under that claim's lock. */
const HELD = '#status = :in_progress AND locked_until_ms = :claimed';

/** The values of `HELD` for the claim made at `claimedAt` (its lock is the one `claim` wrote). */
const heldBy = (claimedAt: Date) => ({
  ':in_progress': 'in_progress',
  ':claimed': claimedAt.getTime() + IDEMPOTENCY_LOCK_MS,
});
