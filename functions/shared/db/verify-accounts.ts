import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import {
  type ControlStatus,
  VERIFICATION_WINDOW_MS,
  VERIFICATIONS_PER_WINDOW,
  type VerifyAccount,
} from '#domain/verify-account';
import { ConflictError, InternalError, RateLimitError } from '#shared/errors';
import { failedConditions, isConditionFailure } from './conditions';
import { ENTITY, keys } from './keys';
import { TABLE_SCHEMA } from './schema';
import { toAccount } from './verify-account-item';
import { type AccountListFilter, matchesFilter, readAccountPage } from './verify-account-list';

export type { AccountListFilter } from './verify-account-list';

const SLOT_RACE_RETRIES = 5;
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
    const slotsPk = keys.verificationSlots(account.tenant, account.routing_number, account.account_number);
    for (let attempt = 0; attempt < SLOT_RACE_RETRIES; attempt++) {
      const slot = await this.freeSlot(slotsPk, now);
      if (slot === undefined) throw tooManyVerifications();
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.tableName,
                  Item: { ...this.accountItem(account), ownership_secret: ownershipSecret },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: this.tableName,
                  Item: {
                    pk: slotsPk,
                    sk: keys.verificationSlot(slot),
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
        if (failed.includes(0)) throw new InternalError('verify account id collision', { cause: error });
        if (!failed.includes(1)) throw error;
        // Another request took the same slot first: look again.
      }
    }
    throw tooManyVerifications();
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
    return readAccountPage(this.db, this.tableName, tenant, filter, page);
  }

  /** The account and the ciphertext of its SSN or tax id, for the verification worker. */
  async getWithSecret(
    tenant: string,
    id: string,
  ): Promise<{ account: VerifyAccount; ownershipSecret?: string } | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.verifyAccount(tenant, id), ConsistentRead: true }),
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
    return this.update(account, change, settled ? ['gsi3pk', 'gsi3sk'] : [], now);
  }

  /**
   * Stores the bank's answer in one write, so one verification is one status change:
   * statuses, ownership matches, the statement code once its credit is sent. The SSN or
   * tax id ciphertext is deleted in the same write: it is not needed any more.
   */
  async recordVerification(
    account: VerifyAccount,
    result: Pick<VerifyAccount, 'verification_status' | 'debit_status'> &
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
      >,
    now: Date,
  ): Promise<VerifyAccount> {
    const set: Record<string, unknown> = { ...result };
    if (result.statement_code_sent_at) {
      set.gsi3pk = keys.pendingStatementCodes;
      set.gsi3sk = keys.pendingStatementCode(result.statement_code_sent_at, account.tenant, account.id);
    }
    return this.update(account, set, ['ownership_secret'], now);
  }

  /** Records that the holder was told the statement code is on its way. */
  async recordHolderNotified(account: VerifyAccount, at: Date): Promise<VerifyAccount> {
    return this.update(account, { statement_code_notified_at: at.toISOString() }, [], at);
  }

  /** Accounts (any tenant) whose statement code was sent before `cutoff` and is still unanswered. */
  async pendingStatementCodesSentBefore(cutoff: Date): Promise<{ tenant: string; id: string }[]> {
    const index = TABLE_SCHEMA.indexes.byDueTime;
    const found: { tenant: string; id: string }[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk AND #sk < :cutoff',
          ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
          ExpressionAttributeValues: { ':pk': keys.pendingStatementCodes, ':cutoff': cutoff.toISOString() },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of out.Items ?? []) found.push({ tenant: String(item.tenant), id: String(item.id) });
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  /** SET and REMOVE in one write, bumping `version`; a conflict if the account changed meanwhile. */
  private async update(account: VerifyAccount, set: Record<string, unknown>, remove: string[], now: Date) {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':now': now.toISOString(),
      ':next': account.version + 1,
      ':v': account.version,
    };
    const sets = ['updated_at = :now', 'version = :next'];
    const removes: string[] = [];
    for (const [field, value] of Object.entries(set)) {
      names[`#${field}`] = field;
      if (value === undefined) removes.push(`#${field}`);
      else {
        values[`:${field}`] = value;
        sets.push(`#${field} = :${field}`);
      }
    }
    for (const field of remove) {
      names[`#${field}`] = field;
      removes.push(`#${field}`);
    }
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.verifyAccount(account.tenant, account.id),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toAccount(out.Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error))
        throw new ConflictError('concurrent_update', 'the account changed meanwhile; retry');
      throw error;
    }
  }

  private accountItem(account: VerifyAccount) {
    const order = keys.accountOrder(account.created_at, account.id);
    return {
      ...keys.verifyAccount(account.tenant, account.id),
      entity: ENTITY.verifyAccount,
      gsi1pk: keys.accountsByTenant(account.tenant),
      gsi1sk: order,
      gsi2pk: keys.accountsByAccountNumber(account.tenant, account.account_number),
      gsi2sk: order,
      ...account,
    };
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
      if (!taken.has(keys.verificationSlot(n))) return n;
    }
    return undefined;
  }
}

const tooManyVerifications = () =>
  new RateLimitError(
    'too_many_verifications',
    `this bank account was verified ${VERIFICATIONS_PER_WINDOW} times in the last 24 hours; try again later`,
  );
