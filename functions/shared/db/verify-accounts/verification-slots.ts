import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { VERIFICATION_WINDOW_MS, VERIFICATIONS_PER_WINDOW, type VerifyAccount } from '#domain/verify-account';
import { RateLimitError } from '#shared/errors';
import { createLogger } from '#shared/logger';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { TABLE_SCHEMA } from '../schema';
import { accountKeys as keys } from './keys';

/** Tries at claiming a free verification slot when another request claims the same one first (one per slot). */
const SLOT_RACE_RETRIES = 5;

/**
 * The limit of 5 verifications per bank account per 24 h, as slots a verification claims
 * (docs/data-model.md, pattern 4): claim, release, and the first free one.
 */
export class VerificationSlots {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Claims a free verification slot of the account's bank account (routing + account
   * number), then runs `write`; if `write` fails the claim is released and its error
   * rethrown, so at most 5 verifications per 24 h ever hold a slot (docs/data-model.md,
   * pattern 4). Rejects with `too_many_verifications` when no slot is free.
   */
  async withSlot<T>(account: VerifyAccount, now: Date, write: () => Promise<T>): Promise<T> {
    const slotsPk = keys.slots(account.tenant, account.routing_number, account.account_number);
    const claim = { accountId: account.id, expiresAtMs: now.getTime() + VERIFICATION_WINDOW_MS };
    // A slot another request claimed first is not proposed again, so a stale read cannot loop.
    const lost = new Set<number>();
    for (let attempt = 0; attempt < SLOT_RACE_RETRIES; attempt++) {
      const slot = await this.freeSlot(slotsPk, now, lost);
      if (slot === undefined) break;
      if (!(await this.claimSlot(slotsPk, slot, claim, now))) {
        lost.add(slot);
        continue;
      }
      try {
        return await write();
      } catch (error) {
        await this.releaseSlot(slotsPk, slot, claim);
        throw error;
      }
    }
    throw tooManyVerifications();
  }

  /**
   * A slot to claim: free or expired on an eventually consistent read, which only
   * proposes (the claim's condition is what is exact). A refusal is decided on a
   * strongly consistent read, so a slot released a moment ago is not missed.
   */
  private async freeSlot(slotsPk: string, now: Date, lost: ReadonlySet<number>): Promise<number | undefined> {
    const proposed = firstFree(await this.slotItems(slotsPk, false), now, lost);
    return proposed ?? firstFree(await this.slotItems(slotsPk, true), now, lost);
  }

  private async slotItems(slotsPk: string, consistent: boolean): Promise<Record<string, unknown>[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': slotsPk },
        ConsistentRead: consistent,
      }),
    );
    return out.Items ?? [];
  }

  /** Takes slot `n` unless a live claim holds it; false when another request holds it. */
  private async claimSlot(slotsPk: string, n: number, claim: SlotClaim, now: Date): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: slotsPk,
            sk: keys.slot(n),
            entity: ENTITY.verificationSlot,
            version: 1,
            account_id: claim.accountId,
            expires_at_ms: claim.expiresAtMs,
            [TABLE_SCHEMA.ttlAttribute]: Math.ceil(claim.expiresAtMs / 1000),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR expires_at_ms <= :now',
          ExpressionAttributeValues: { ':now': now.getTime() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Frees slot `n` if it still holds this claim. A release that fails is logged and the
   * slot frees itself when the claim expires: the limit errs on the safe side.
   */
  private async releaseSlot(slotsPk: string, n: number, claim: SlotClaim): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: slotsPk, sk: keys.slot(n) },
          ConditionExpression: 'account_id = :account AND expires_at_ms = :expires',
          ExpressionAttributeValues: { ':account': claim.accountId, ':expires': claim.expiresAtMs },
        }),
      );
    } catch (error) {
      createLogger().error('verification slot not released; it frees itself in 24 h', { error });
    }
  }
}

/** One request's hold on a slot: which account, until when. */
interface SlotClaim {
  accountId: string;
  expiresAtMs: number;
}

/** The first slot neither held by a live claim nor lost to another request during this one. */
function firstFree(items: Record<string, unknown>[], now: Date, lost: ReadonlySet<number>): number | undefined {
  const taken = new Set(
    items.filter((slot) => Number(slot.expires_at_ms) > now.getTime()).map((slot) => String(slot.sk)),
  );
  for (let n = 0; n < VERIFICATIONS_PER_WINDOW; n++) {
    if (!taken.has(keys.slot(n)) && !lost.has(n)) return n;
  }
  return undefined;
}

const tooManyVerifications = () =>
  new RateLimitError(
    'too_many_verifications',
    `this bank account was verified ${VERIFICATIONS_PER_WINDOW} times in the last 24 hours; try again later`,
  );
