import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#shared/errors';
import { isConditionFailure } from './conditions';
import type { ItemKey } from './items';

/** What a versioned update changes: attributes to set (`undefined` removes) and attributes to remove. */
export interface VersionedChange {
  set: Record<string, unknown>;
  remove?: readonly string[];
}

/** The conflict every versioned update throws when the record changed since it was read. */
export const concurrentUpdate = () => new ConflictError('concurrent_update', 'the record changed meanwhile; retry');

/**
 * The UpdateItem of a versioned change, for a transaction item or a single write: SET and
 * REMOVE, `updated_at` stamped and `version` bumped, on condition that the stored version
 * is still the one read.
 */
export function versionedUpdateInput(
  tableName: string,
  key: ItemKey,
  version: number,
  change: VersionedChange,
  now: Date,
) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':next': version + 1, ':v': version };
  const sets = ['updated_at = :now', 'version = :next'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(change.set)) {
    names[`#${field}`] = field;
    if (value === undefined) removes.push(`#${field}`);
    else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  }
  for (const field of change.remove ?? []) {
    names[`#${field}`] = field;
    removes.push(`#${field}`);
  }
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: 'version = :v',
    ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
    ExpressionAttributeValues: values,
  };
}

/**
 * Optimistic locking, one write: the versioned change as one UpdateItem answering the
 * whole new item. A lost condition is a `concurrent_update` conflict, which
 * `retryOnConflict` turns into a fresh read and decision.
 */
export async function updateVersioned(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: ItemKey,
  version: number,
  change: VersionedChange,
  now: Date,
): Promise<Record<string, unknown>> {
  try {
    const out = await db.send(
      new UpdateCommand({ ...versionedUpdateInput(tableName, key, version, change, now), ReturnValues: 'ALL_NEW' }),
    );
    return out.Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) throw concurrentUpdate();
    throw error;
  }
}
