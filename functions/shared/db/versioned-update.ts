import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, InternalError } from '#shared/errors';
import { isConditionFailure } from './conditions';
import type { ItemKey } from './items';

/** A value an update stores: anything but `undefined` or `null`, neither of which means "remove". */
export type StoredValue = NonNullable<unknown>;

/**
 * Every field of `S` defined: a field that is optional or may be `undefined` is a type error,
 * so a caller cannot pass `undefined` and mean "remove" (or "unchanged"); it names the field
 * in `remove`, or leaves it out.
 */
export type DefinedFields<S> = { [K in keyof S]-?: undefined extends S[K] ? never : S[K] };

/**
 * What a versioned update changes: attributes to set, each with a value, and attributes to
 * remove. `remove` is the only way to remove one: a wrong statement code once passed
 * `control_status: undefined` for "unchanged" and the account lost its control status.
 */
export interface VersionedChange<S extends Record<string, StoredValue> = Record<string, StoredValue>> {
  set: S & DefinedFields<S>;
  remove?: readonly string[];
}

/**
 * The fields of a partial change that it changes: an absent field (or one left `undefined`
 * or `null`) is unchanged, never removed. For changes typed as `Partial<…>`, whose fields
 * the compiler cannot prove defined; removing stays the job of `remove`.
 */
export function changedFields<T extends object>(partial: T): Record<string, StoredValue> {
  return Object.fromEntries(
    Object.entries(partial).filter(
      (entry): entry is [string, StoredValue] => entry[1] !== undefined && entry[1] !== null,
    ),
  );
}

/** The conflict every versioned update throws when the record changed since it was read. */
export const concurrentUpdate = () => new ConflictError('concurrent_update', 'the record changed meanwhile; retry');

/**
 * The UpdateItem of a versioned change, for a transaction item or a single write: SET and
 * REMOVE, `updated_at` stamped and `version` bumped, on condition that the stored version
 * is still the one read.
 */
export function versionedUpdateInput<S extends Record<string, StoredValue>>(
  tableName: string,
  key: ItemKey,
  version: number,
  change: VersionedChange<S>,
  now: Date,
) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':next': version + 1, ':v': version };
  const sets = ['updated_at = :now', 'version = :next'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(change.set)) {
    // Only a cast gets here: refused, as neither a silent remove nor a silent skip is what was meant.
    if (value === undefined || value === null) {
      throw new InternalError(`versioned update sets ${field} to ${value}: name it in remove, or leave it out`);
    }
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
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
 * The item as `versionedUpdateInput` leaves it, computed without the table: for a write
 * whose answer is kept with it (./idempotency/kept-answer.ts), which answers the item it is
 * about to write. A transaction answers no item.
 */
export function appliedChange(
  item: Record<string, unknown>,
  change: VersionedChange,
  now: Date,
): Record<string, unknown> {
  const next: Record<string, unknown> = {
    ...item,
    ...change.set,
    updated_at: now.toISOString(),
    version: Number(item.version) + 1,
  };
  for (const field of change.remove ?? []) delete next[field];
  return next;
}

/**
 * Optimistic locking, one write: the versioned change as one UpdateItem answering the
 * whole new item. A lost condition is a `concurrent_update` conflict, which
 * `retryOnConflict` turns into a fresh read and decision.
 */
export async function updateVersioned<S extends Record<string, StoredValue>>(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: ItemKey,
  version: number,
  change: VersionedChange<S>,
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
