import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import type {
  ControlStatus,
  DebitStatus,
  OwnershipStatus,
  VerificationStatus,
  VerifyAccount,
} from '#domain/verify-account';
import { InternalError } from '#shared/errors';
import { keys } from './keys';
import { TABLE_SCHEMA } from './schema';
import { toAccount } from './verify-account-item';

/**
 * One page of a tenant's verify accounts (access patterns 2 and 3 in ./keys.ts): the slim
 * index is walked newest first, passing over `skip` matches, and only the page's items are
 * then read by key.
 */
export interface AccountListFilter {
  id?: string;
  /** Inclusive lower bound of `created_at` (RFC 3339, UTC, ms). */
  startTime?: string;
  /** Exclusive upper bound of `created_at`. */
  endTime?: string;
  accountNumber?: string;
  verificationStatus?: VerificationStatus[];
  ownershipStatus?: OwnershipStatus[];
  controlStatus?: ControlStatus[];
  debitStatus?: DebitStatus[];
}

const STATUS_FILTERS = [
  ['verificationStatus', 'verification_status'],
  ['ownershipStatus', 'ownership_status'],
  ['controlStatus', 'control_status'],
  ['debitStatus', 'debit_status'],
] as const;
const BATCH_GET_LIMIT = 100;
/** Rounds of retrying unprocessed keys before giving up (backoff 50 ms … 1 s). */
const BATCH_GET_ROUNDS = 8;

export async function readAccountPage(
  db: DynamoDBDocumentClient,
  tableName: string,
  tenant: string,
  filter: AccountListFilter,
  page: PageWindow,
): Promise<VerifyAccount[]> {
  return batchGet(db, tableName, await pageKeys(db, tableName, tenant, filter, page));
}

/** Walks the slim index newest first, passing over `skip` matches, and keeps the page's keys. */
async function pageKeys(
  db: DynamoDBDocumentClient,
  tableName: string,
  tenant: string,
  filter: AccountListFilter,
  page: PageWindow,
) {
  const index = filter.accountNumber ? TABLE_SCHEMA.indexes.byLookup : TABLE_SCHEMA.indexes.byTenant;
  const partition = filter.accountNumber
    ? keys.accountsByAccountNumber(tenant, filter.accountNumber)
    : keys.accountsByTenant(tenant);
  const query = buildQuery(index, partition, filter);
  const found: { pk: string; sk: string }[] = [];
  let seen = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ TableName: tableName, ...query, ExclusiveStartKey: startKey }));
    for (const item of out.Items ?? []) {
      if (seen++ < page.skip) continue;
      found.push({ pk: String(item.pk), sk: String(item.sk) });
      if (found.length === page.take) return found;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return found;
}

async function batchGet(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: { pk: string; sk: string }[],
): Promise<VerifyAccount[]> {
  const byKey = new Map<string, VerifyAccount>();
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_LIMIT) {
    let request: Record<string, unknown>[] | undefined = itemKeys.slice(i, i + BATCH_GET_LIMIT);
    for (let round = 0; request && request.length > 0; round++) {
      if (round === BATCH_GET_ROUNDS) throw new InternalError('table kept throttling the page read');
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** round)));
      const out: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: request, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) byKey.set(`${item.pk}|${item.sk}`, toAccount(item));
      request = out.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  // BatchGet answers in any order; the page keeps the index's order (deleted items drop out).
  return itemKeys.flatMap((k) => byKey.get(`${k.pk}|${k.sk}`) ?? []);
}

function buildQuery(
  index: { name: string; partitionKey: string; sortKey: string },
  partition: string,
  filter: AccountListFilter,
) {
  const names: Record<string, string> = { '#pk': index.partitionKey };
  const values: Record<string, unknown> = { ':pk': partition };
  let keyCondition = '#pk = :pk';
  if (filter.startTime || filter.endTime) names['#sk'] = index.sortKey;
  // Sort keys are `<created_at>#<id>`: `>= start` includes created_at == start, `< end` excludes created_at == end.
  if (filter.startTime && filter.endTime) {
    keyCondition += ' AND #sk BETWEEN :start AND :end';
    Object.assign(values, { ':start': filter.startTime, ':end': filter.endTime });
  } else if (filter.startTime) {
    keyCondition += ' AND #sk >= :start';
    values[':start'] = filter.startTime;
  } else if (filter.endTime) {
    keyCondition += ' AND #sk < :end';
    values[':end'] = filter.endTime;
  }
  const conditions: string[] = [];
  for (const [param, attribute] of STATUS_FILTERS) {
    const wanted = filter[param];
    if (!wanted?.length) continue;
    names[`#${attribute}`] = attribute;
    const placeholders = wanted.map((value, i) => {
      values[`:${attribute}${i}`] = value;
      return `:${attribute}${i}`;
    });
    conditions.push(`#${attribute} IN (${placeholders.join(', ')})`);
  }
  return {
    IndexName: index.name,
    KeyConditionExpression: keyCondition,
    FilterExpression: conditions.length ? conditions.join(' AND ') : undefined,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

export function matchesFilter(account: VerifyAccount, filter: AccountListFilter): boolean {
  if (filter.startTime && account.created_at < filter.startTime) return false;
  if (filter.endTime && account.created_at >= filter.endTime) return false;
  if (filter.accountNumber && account.account_number !== filter.accountNumber) return false;
  return STATUS_FILTERS.every(([param, attribute]) => {
    const wanted = filter[param] as string[] | undefined;
    return !wanted?.length || wanted.includes(account[attribute] as string);
  });
}
