import { type DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import {
  type ControlStatus,
  VERIFICATION_WINDOW_MS,
  VERIFICATIONS_PER_WINDOW,
  type VerifyAccount,
} from '#domain/verify-account';
import { InternalError, RateLimitError } from '#shared/errors';
import { failedConditions } from '../conditions';
import { ENTITY } from '../entities';
import { queryPartition, readPage } from '../paging';
import { TABLE_SCHEMA } from '../schema';
import { allShards, shardOf } from '../shards';
import { concurrentUpdate, updateVersioned, type VersionedChange, versionedUpdateInput } from '../versioned-update';
import { accountItem, accountListPartition, toAccount } from './item';
import { accountKeys as keys, PENDING_CODE_SHARDS } from './keys';
import { type AccountListFilter, accountListQuery, filtersAfterRead, matchesFilter } from './list';

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

/** Tries at taking a free verification slot when another request takes the same one first. */
const SLOT_RACE_RETRIES = 5;

/** Verify accounts and their 5-per-24 h verification slots (docs/data-model.md, patterns 1–4 and 9). */
export class VerifyAccountRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Stores a new account and takes one of the tenant's verification slots for its bank
   * account in the same transaction, so the 5-per-24h limit holds under concurrency.
   * `ownershipSecret` is the ciphertext of the SSN or tax id, stored beside the account.
   */
  async create(account: VerifyAccount, ownershipSecret: string | undefined, now: Date): Promise<void> {
    await this.withSlot(account, now, {
      Put: {
        TableName: this.tableName,
        Item: { ...accountItem(account), ownership_secret: ownershipSecret },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }).catch((error) => {
      if (error === ITEM_CONDITION_FAILED) throw new InternalError('verify account id collision');
      throw error;
    });
  }

  /**
   * Asks the bank again about debits (`POST …/debits`): `debit_status` returns to
   * `pending` (its reason goes) and one verification slot is taken, in one transaction
   * that also checks the account is unchanged since it was read.
   */
  async restartDebitCheck(account: VerifyAccount, now: Date): Promise<VerifyAccount> {
    const change = { set: { debit_status: 'pending' }, remove: ['debit_status_reason'] };
    const key = keys.account(account.tenant, account.id);
    await this.withSlot(account, now, {
      Update: versionedUpdateInput(this.tableName, key, account.version, change, now),
    }).catch((error) => {
      if (error === ITEM_CONDITION_FAILED) throw concurrentUpdate();
      throw error;
    });
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

  /** Newest first (`created_at` descending, then id descending), one page of the filtered set. */
  async list(tenant: string, filter: AccountListFilter, page: PageWindow): Promise<VerifyAccount[]> {
    if (page.take === 0) return [];
    if (filter.id !== undefined) {
      const account = await this.get(tenant, filter.id);
      return account && page.skip === 0 && matchesFilter(account, filter) ? [account] : [];
    }
    const query = accountListQuery(tenant, filter);
    const matches = filtersAfterRead(filter)
      ? (item: Record<string, unknown>) => matchesFilter(toAccount(item), filter)
      : undefined;
    const items = await readPage(this.db, this.tableName, query, page, matches);
    return items.map(toAccount);
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
    return this.update(account, { set: change, remove: settled ? ['gsi3pk', 'gsi3sk'] : [] }, now);
  }

  /**
   * Stores the bank's answer in one write, so one verification is one status change:
   * statuses, ownership matches, the statement code once its credit is sent. The SSN or
   * tax id ciphertext is deleted in the same write: it is not needed any more.
   */
  async recordVerification(account: VerifyAccount, result: VerificationResult, now: Date): Promise<VerifyAccount> {
    const set: Record<string, unknown> = { ...result };
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
    return this.update(account, { set: { ...result } }, now);
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
   * Writes `write` together with a free verification slot of the account's bank account
   * (routing + account number), so at most 5 verifications per 24 h ever hold a slot.
   * Rejects with ITEM_CONDITION_FAILED when `write`'s own condition fails, and with
   * `too_many_verifications` when no slot is free.
   */
  private async withSlot(account: VerifyAccount, now: Date, write: Record<string, unknown>): Promise<void> {
    const slotsPk = keys.slots(account.tenant, account.routing_number, account.account_number);
    for (let attempt = 0; attempt < SLOT_RACE_RETRIES; attempt++) {
      const slot = await this.freeSlot(slotsPk, now);
      if (slot === undefined) throw tooManyVerifications();
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              write,
              {
                Put: {
                  TableName: this.tableName,
                  Item: {
                    pk: slotsPk,
                    sk: keys.slot(slot),
                    entity: ENTITY.verificationSlot,
                    version: 1,
                    account_id: account.id,
                    expires_at_ms: now.getTime() + VERIFICATION_WINDOW_MS,
                    [TABLE_SCHEMA.ttlAttribute]: Math.ceil((now.getTime() + VERIFICATION_WINDOW_MS) / 1000),
                  },
                  ConditionExpression: 'attribute_not_exists(pk) OR expires_at_ms <= :now',
                  ExpressionAttributeValues: { ':now': now.getTime() },
                },
              },
            ],
          }),
        );
        return;
      } catch (error) {
        const failed = failedConditions(error);
        if (failed.includes(0)) throw ITEM_CONDITION_FAILED;
        if (!failed.includes(1)) throw error;
        // Another request took the same slot first: look again.
      }
    }
    throw tooManyVerifications();
  }

  private async freeSlot(slotsPk: string, now: Date): Promise<number | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': slotsPk },
        ConsistentRead: true,
      }),
    );
    const taken = new Set(
      (out.Items ?? []).filter((slot) => Number(slot.expires_at_ms) > now.getTime()).map((slot) => String(slot.sk)),
    );
    for (let n = 0; n < VERIFICATIONS_PER_WINDOW; n++) {
      if (!taken.has(keys.slot(n))) return n;
    }
    return undefined;
  }
}

/** The record written beside a slot failed its own condition (a sentinel, never shown). */
const ITEM_CONDITION_FAILED = Symbol('item condition failed');

const tooManyVerifications = () =>
  new RateLimitError(
    'too_many_verifications',
    `this bank account was verified ${VERIFICATIONS_PER_WINDOW} times in the last 24 hours; try again later`,
  );
