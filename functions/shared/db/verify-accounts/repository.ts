import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CreditReturn } from '#domain/ach-returns';
import type { ControlStatus, VerifyAccount } from '#domain/verify-account';
import { isConditionFailure } from '../conditions';
import { readEarlierAttempt } from '../created-item';
import { ENTITY } from '../entities';
import { type KeepAnswer, writeWithAnswer } from '../idempotency/kept-answer';
import { REQUEST_FINGERPRINT } from '../items';
import { queryPartition } from '../paging/partitions';
import { allShards, shardOf } from '../shards';
import {
  appliedChange,
  changedFields,
  concurrentUpdate,
  updateVersioned,
  type VersionedChange,
  versionedUpdateInput,
} from '../versioned-update';
import { accountItem, accountListPartition, toAccount } from './item';
import { accountKeys as keys, PENDING_CODE_SHARDS } from './keys';
import { VerificationSlots } from './verification-slots';

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

/** Verify accounts, each verification holding one of its bank account's slots (./verification-slots.ts; docs/data-model.md, patterns 1–4 and 9). */
export class VerifyAccountRepository {
  private readonly slots: VerificationSlots;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.slots = new VerificationSlots(db, tableName);
  }

  /**
   * Stores a new account after claiming one of the tenant's verification slots for its
   * bank account, so the 5-per-24h limit holds under concurrency (docs/data-model.md,
   * pattern 4). `ownershipSecret` is the ciphertext of the SSN or tax id, stored beside
   * the account. When its id was made from an `Idempotency-Key` (#shared/created-id) and
   * the request's `fingerprint` is given, an account an earlier attempt of the same request
   * stored under that id (its answer lost on the way back) is answered instead, keeping the
   * slot just claimed (the lost attempt released its own); another request under that id
   * is `idempotency_key_reused`, and an account made under it more than the key's 24 h ago
   * is `CreatedIdTaken` (the key is used again: a new request, under a random id;
   * ../created-item.ts). With `keep`, the request's answer is written with the account
   * (../idempotency/kept-answer.ts). Answers the account stored.
   */
  async create(
    account: VerifyAccount,
    ownershipSecret: string | undefined,
    now: Date,
    request: { fingerprint?: string; keep?: KeepAnswer<VerifyAccount> } = {},
  ): Promise<VerifyAccount> {
    const { fingerprint, keep } = request;
    return this.slots.withSlot(account, now, async () => {
      const put = {
        TableName: this.tableName,
        Item: { ...accountItem(account), ownership_secret: ownershipSecret, [REQUEST_FINGERPRINT]: fingerprint },
        ConditionExpression: 'attribute_not_exists(pk)',
      };
      try {
        if (keep) await writeWithAnswer(this.db, [{ Put: put }], keep(account));
        else await this.db.send(new PutCommand(put));
        return account;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const key = keys.account(account.tenant, account.id);
        return toAccount(
          await readEarlierAttempt(this.db, this.tableName, key, { fingerprint, now, what: 'verify account' }),
        );
      }
    });
  }

  /**
   * Asks the bank again about debits (`POST …/debits`): one verification slot is claimed,
   * then `debit_status` returns to `pending` (its reason goes) on condition that the
   * account is unchanged since it was read; a conflict frees the slot again. With `keep`,
   * the request's answer is written with it.
   */
  async restartDebitCheck(account: VerifyAccount, now: Date, keep?: KeepAnswer<VerifyAccount>): Promise<VerifyAccount> {
    const change = { set: { debit_status: 'pending' }, remove: ['debit_status_reason'] };
    const key = keys.account(account.tenant, account.id);
    const next: VerifyAccount = {
      ...account,
      debit_status: 'pending',
      updated_at: now.toISOString(),
      version: account.version + 1,
    };
    delete next.debit_status_reason;
    await this.slots.withSlot(account, now, async () => {
      const update = versionedUpdateInput(this.tableName, key, account.version, change, now);
      if (keep) await this.writeKeeping(update, keep(next));
      else await updateVersioned(this.db, this.tableName, key, account.version, change, now);
    });
    return next;
  }

  async get(tenant: string, id: string): Promise<VerifyAccount | undefined> {
    return (await this.getWithSecret(tenant, id))?.account;
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
   * With `keep`, the request's answer is written with it.
   */
  async updateControl(
    account: VerifyAccount,
    change: { control_attempts?: number; control_status?: ControlStatus },
    now: Date,
    keep?: KeepAnswer<VerifyAccount>,
  ): Promise<VerifyAccount> {
    const settled = change.control_status === 'valid' || change.control_status === 'canceled';
    const versioned = { set: changedFields(change), remove: settled ? ['gsi3pk', 'gsi3sk'] : [] };
    return this.update(account, versioned, now, keep);
  }

  /**
   * A returned statement credit: control canceled (the account leaves the pending-codes
   * index) and, when the return is about the account itself, its statuses, in one write.
   */
  async recordCreditReturn(account: VerifyAccount, returned: CreditReturn, now: Date): Promise<VerifyAccount> {
    return this.update(account, { set: changedFields(returned), remove: ['gsi3pk', 'gsi3sk'] }, now);
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

  private async update(
    account: VerifyAccount,
    change: VersionedChange,
    now: Date,
    keep?: KeepAnswer<VerifyAccount>,
  ): Promise<VerifyAccount> {
    const status = change.set.verification_status as VerifyAccount['verification_status'] | undefined;
    // The list partition is keyed by the verification status: a new status moves the index entry.
    const set =
      status && status !== account.verification_status
        ? { ...change.set, gsi1pk: accountListPartition({ ...account, verification_status: status }) }
        : change.set;
    const key = keys.account(account.tenant, account.id);
    if (!keep)
      return toAccount(await updateVersioned(this.db, this.tableName, key, account.version, { ...change, set }, now));
    // A transaction answers no item: the answer is of the account as the update leaves it.
    const next = toAccount(appliedChange(accountItem(account), { ...change, set }, now));
    await this.writeKeeping(
      versionedUpdateInput(this.tableName, key, account.version, { ...change, set }, now),
      keep(next),
    );
    return next;
  }

  /** A versioned update of an account with the request's answer (../idempotency/kept-answer.ts); a lost race is `concurrent_update`. */
  private async writeKeeping(
    update: ReturnType<typeof versionedUpdateInput>,
    kept: ReturnType<KeepAnswer<VerifyAccount>>,
  ): Promise<void> {
    try {
      await writeWithAnswer(this.db, [{ Update: update }], kept);
    } catch (error) {
      if (isConditionFailure(error)) throw concurrentUpdate();
      throw error;
    }
  }
}
