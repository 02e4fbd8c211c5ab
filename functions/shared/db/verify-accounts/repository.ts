import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type ControlStatus,
  VERIFICATION_WINDOW_MS,
  VERIFICATIONS_PER_WINDOW,
  type VerifyAccount,
} from '#domain/verify-account';
import { InternalError, RateLimitError } from '#shared/errors';
import { createLogger } from '#shared/logger';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { type ListPage, ListPositions, type PageRequest } from '../list-positions/index';
import { queryPartition } from '../paging/partitions';
import { TABLE_SCHEMA } from '../schema';
import { allShards, shardOf } from '../shards';
import { changedFields, updateVersioned, type VersionedChange } from '../versioned-update';
import { accountItem, accountListPartition, toAccount } from './item';
import { accountKeys as keys, PENDING_CODE_SHARDS } from './keys';
import { type AccountListFilter, accountListSource, matchesFilter } from './list';

export type { AccountListFilter } from './list';

/** What the bank's answer sets on an account, in one write. */
export type VerificationResult = Pick<VerifyAccount, 'verification_status' | 'debit_status'> &
  Partial<
    Pick<
      VerifyAccount,
      | 'status_reason'
      | 'debit_status_reason'
      | 'ownership_status'
      | 'person'
      | 'business'
      | 'control_status'
      | 'statement_code_hash'
      | 'statement_code_sent_at'
    >
  >;

/** Tries at claiming a free verification slot when another request claims the same one first (one per slot). */
const SLOT_RACE_RETRIES = 5;

/** Verify accounts and their 5-per-24 h verification slots (docs/data-model.md, patterns 1–4 and 9). */
export class VerifyAccountRepository {
  private readonly positions: ListPositions;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.positions = new ListPositions(db, tableName);
  }

  /**
   * Stores a new account after claiming one of the tenant's verification slots for its
   * bank account, so the 5-per-24h limit holds under concurrency (docs/data-model.md,
   * pattern 4). `ownershipSecret` is the ciphertext of the SSN or tax id, stored beside
   * the account.
   */
  async create(account: VerifyAccount, ownershipSecret: string | undefined, now: Date): Promise<void> {
    await this.withSlot(account, now, async () => {
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...accountItem(account), ownership_secret: ownershipSecret },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw new InternalError('verify account id collision');
        throw error;
      }
    });
  }

  /**
   * Asks the bank again about debits (`POST …/debits`): one verification slot is claimed,
   * then `debit_status` returns to `pending` (its reason goes) on condition that the
   * account is unchanged since it was read; a conflict frees the slot again.
   */
  async restartDebitCheck(account: VerifyAccount, now: Date): Promise<VerifyAccount> {
    const change = { set: { debit_status: 'pending' }, remove: ['debit_status_reason'] };
    const key = keys.account(account.tenant, account.id);
    await this.withSlot(account, now, () =>
      updateVersioned(this.db, this.tableName, key, account.version, change, now),
    );
    const next: VerifyAccount = {
      ...account,
      debit_status: 'pending',
      updated_at: now.toISOString(),
      version: account.version + 1,
    };
    delete next.debit_status_reason;
    return next;
  }

  async get(tenant: string, id: string): Promise<VerifyAccount | undefined> {
    return (await this.getWithSecret(tenant, id))?.account;
  }

  /**
   * Newest first (`created_at` descending, then id descending), one page of the filtered
   * set, by number or after a cursor, and the cursor of the next page.
   */
  async list(
    tenant: string,
    filter: AccountListFilter,
    request: PageRequest,
    now = new Date(),
  ): Promise<ListPage<VerifyAccount>> {
    if ('page' in request && filter.id !== undefined) {
      const account = request.page.take > 0 ? await this.get(tenant, filter.id) : undefined;
      return { items: account && request.page.skip === 0 && matchesFilter(account, filter) ? [account] : [] };
    }
    const list = {
      kind: 'verify_accounts' as const,
      source: () => accountListSource(tenant, filter),
      matchesOf: (statuses?: Record<string, unknown>) =>
        statuses ? (item: Record<string, unknown>) => matchesFilter(toAccount(item), statuses) : undefined,
    };
    const served = await this.positions.serve(tenant, list, request, now);
    return { items: served.items.map(toAccount), next: served.next };
  }

  /** The account and the ciphertext of its SSN or tax id, for the verification worker. */
  async getWithSecret(
    tenant: string,
    id: string,
  ): Promise<{ account: VerifyAccount; ownershipSecret?: string } | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.account(tenant, id), ConsistentRead: true }),
    );
    if (!out.Item || out.Item.entity !== ENTITY.verifyAccount) return undefined;
    return { account: toAccount(out.Item), ownershipSecret: out.Item.ownership_secret as string | undefined };
  }

  /**
   * Applies a decision about the statement code. Once control is valid or canceled the
   * account leaves the pending-codes index. Fails with a conflict if the account changed.
   */
  async updateControl(
    account: VerifyAccount,
    change: { control_attempts?: number; control_status?: ControlStatus },
    now: Date,
  ): Promise<VerifyAccount> {
    const settled = change.control_status === 'valid' || change.control_status === 'canceled';
    return this.update(account, { set: changedFields(change), remove: settled ? ['gsi3pk', 'gsi3sk'] : [] }, now);
  }

  /**
   * Stores the bank's answer in one write, so one verification is one status change:
   * statuses, ownership matches, the statement code once its credit is sent. The SSN or
   * tax id ciphertext is deleted in the same write: it is not needed any more.
   */
  async recordVerification(account: VerifyAccount, result: VerificationResult, now: Date): Promise<VerifyAccount> {
    const set = changedFields(result);
    if (result.statement_code_sent_at) {
      set.gsi3pk = keys.pendingStatementCodes(shardOf(account.id, PENDING_CODE_SHARDS));
      set.gsi3sk = keys.pendingStatementCode(result.statement_code_sent_at, account.tenant, account.id);
    }
    return this.update(account, { set, remove: ['ownership_secret'] }, now);
  }

  /** Stores the bank's answer to a repeated debit check. */
  async recordDebitCheck(
    account: VerifyAccount,
    result: Pick<VerifyAccount, 'debit_status' | 'debit_status_reason'>,
    now: Date,
  ): Promise<VerifyAccount> {
    const remove = result.debit_status_reason === undefined ? ['debit_status_reason'] : [];
    return this.update(account, { set: changedFields(result), remove }, now);
  }

  /** Records that the holder was told the statement code is on its way. */
  async recordHolderNotified(account: VerifyAccount, at: Date): Promise<VerifyAccount> {
    return this.update(account, { set: { statement_code_notified_at: at.toISOString() } }, at);
  }

  /** Accounts (any tenant) whose statement code was sent before `cutoff` and is still unanswered. */
  async pendingStatementCodesSentBefore(cutoff: Date): Promise<{ tenant: string; id: string }[]> {
    const shards = await Promise.all(
      allShards(PENDING_CODE_SHARDS).map((shard) =>
        queryPartition(this.db, this.tableName, {
          index: 'byDueTime',
          partition: keys.pendingStatementCodes(shard),
          before: cutoff.toISOString(),
        }),
      ),
    );
    const items = shards.flat();
    return items.map((item) => ({ tenant: String(item.tenant), id: String(item.id) }));
  }

  private async update(account: VerifyAccount, change: VersionedChange, now: Date): Promise<VerifyAccount> {
    const status = change.set.verification_status as VerifyAccount['verification_status'] | undefined;
    // The list partition is keyed by the verification status: a new status moves the index entry.
    const set =
      status && status !== account.verification_status
        ? { ...change.set, gsi1pk: accountListPartition({ ...account, verification_status: status }) }
        : change.set;
    const item = await updateVersioned(
      this.db,
      this.tableName,
      keys.account(account.tenant, account.id),
      account.version,
      { ...change, set },
      now,
    );
    return toAccount(item);
  }

  /**
   * Claims a free verification slot of the account's bank account (routing + account
   * number), then runs `write`; if `write` fails the claim is released and its error
   * rethrown, so at most 5 verifications per 24 h ever hold a slot (docs/data-model.md,
   * pattern 4). Rejects with `too_many_verifications` when no slot is free.
   */
  private async withSlot<T>(account: VerifyAccount, now: Date, write: () => Promise<T>): Promise<T> {
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
