import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AccountCheck, BankCheckKind, PendingCheck } from '#shared/bank/bank-provider';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { queryPartition } from '../paging/partitions';
import { allShards, shardOf } from '../shards';
import { accountKeys as keys, PENDING_CODE_SHARDS } from './keys';

/** A check sent over the rails for one account, as stored until it is answered. */
export interface BankWait {
  readonly kind: BankCheckKind;
  readonly provider: string;
  readonly reference: string;
  readonly windowEndsAt: string;
  /** What the bank's return said, once it came (a debit return waits for the status to settle). */
  readonly returned?: Partial<AccountCheck>;
}

/** Which account's check a window ended for. */
export interface DueWait {
  readonly tenant: string;
  readonly id: string;
  readonly kind: BankCheckKind;
}

/** One prenotification an account's check sent: the provider's id of it. */
export interface SentCheck extends DueWait {
  readonly reference: string;
}

/**
 * Checks sent over the rails and not answered yet (docs/data-model.md, `bank_wait`): one
 * item beside its verify account per check (status, debits), in the byDueTime index by
 * the end of its return window until it is answered. A return marks it; the account's
 * settlement deletes it.
 */
export class BankWaitRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Keeps a pending check, one item per prenotification sent. A repeated run of the worker
   * writes nothing: an item already kept may carry a return by now, which must stay.
   */
  async put(account: { tenant: string; id: string }, pending: PendingCheck): Promise<void> {
    const endsAt = pending.windowEndsAt.toISOString();
    const kinds = Object.entries(pending.references) as [BankCheckKind, string][];
    await Promise.all(
      kinds.map(([kind, reference]) =>
        this.putOnce(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...keys.bankWait(account.tenant, account.id, kind),
              entity: ENTITY.bankWait,
              version: 1,
              tenant: account.tenant,
              id: account.id,
              kind,
              provider: pending.provider,
              reference,
              window_ends_at: endsAt,
              gsi3pk: keys.bankWindows(shardOf(account.id, PENDING_CODE_SHARDS)),
              gsi3sk: keys.bankWindow(endsAt, account.tenant, account.id, kind),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ),
    );
  }

  private async putOnce(put: PutCommand): Promise<void> {
    try {
      await this.db.send(put);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** The account's pending checks (consistent: an answer just stored is seen). */
  async of(tenant: string, id: string): Promise<BankWait[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :wait)',
        ExpressionAttributeValues: { ':pk': keys.bankWait(tenant, id, '').pk, ':wait': 'BANKWAIT#' },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).map((item) => ({
      kind: item.kind as BankCheckKind,
      provider: String(item.provider),
      reference: String(item.reference),
      windowEndsAt: String(item.window_ends_at),
      ...(item.returned !== undefined && { returned: item.returned as Partial<AccountCheck> }),
    }));
  }

  /**
   * Stores a return on the pending check that sent this prenotification, once: false when no
   * pending check sent it (an earlier check's, or one answered already) or it was returned
   * already.
   */
  async markReturned(sent: SentCheck, returned: Partial<AccountCheck>): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.bankWait(sent.tenant, sent.id, sent.kind),
          UpdateExpression: 'SET returned = :returned ADD version :one',
          ConditionExpression: 'attribute_exists(pk) AND #reference = :reference AND attribute_not_exists(returned)',
          // REFERENCE is one of DynamoDB's reserved words.
          ExpressionAttributeNames: { '#reference': 'reference' },
          ExpressionAttributeValues: { ':returned': returned, ':one': 1, ':reference': sent.reference },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Forgets the account's answered checks. */
  async clear(tenant: string, id: string, kinds: readonly BankCheckKind[]): Promise<void> {
    await Promise.all(
      kinds.map((kind) =>
        this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.bankWait(tenant, id, kind) })),
      ),
    );
  }

  /** Pending checks (any tenant) whose return window ended before `cutoff`. */
  async endedBefore(cutoff: Date): Promise<DueWait[]> {
    const shards = await Promise.all(
      allShards(PENDING_CODE_SHARDS).map((shard) =>
        queryPartition(this.db, this.tableName, {
          index: 'byDueTime',
          partition: keys.bankWindows(shard),
          before: cutoff.toISOString(),
        }),
      ),
    );
    return shards.flat().map((item) => {
      const [, tenant, id, kind] = String(item.gsi3sk).split('#');
      return { tenant: String(tenant), id: String(id), kind: kind as BankCheckKind };
    });
  }
}
