import { TABLE_SCHEMA } from './schema';

/**
 * Kept on an item a create made under an `Idempotency-Key`: the keyed fingerprint of that
 * request, telling a retry of it from another request with the key (./created-item.ts).
 */
export const REQUEST_FINGERPRINT = 'request_fingerprint';

/** Attributes every stored item may carry that only storage needs: keys, index keys, entity, TTL, the creating request's fingerprint. */
const STORAGE_KEYS: readonly string[] = [
  TABLE_SCHEMA.partitionKey,
  TABLE_SCHEMA.sortKey,
  TABLE_SCHEMA.ttlAttribute,
  'entity',
  REQUEST_FINGERPRINT,
  ...Object.values(TABLE_SCHEMA.indexes).flatMap((index) => [index.partitionKey, index.sortKey]),
];

/**
 * A stored item (or a stream image) without its storage attributes and the entity's own
 * storage-only fields (`extra`), as the domain sees it.
 */
export function withoutStorageFields(
  item: Record<string, unknown>,
  extra: readonly string[] = [],
): Record<string, unknown> {
  const record = { ...item };
  for (const attribute of [...STORAGE_KEYS, ...extra]) delete record[attribute];
  return record;
}

/** An item's primary key. */
export interface ItemKey {
  pk: string;
  sk: string;
}

export const keyOf = (item: Record<string, unknown>): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });
