import { type IndexName, TABLE_SCHEMA } from '../schema';

// Lists as every entity pages them: walk a slim index (keys and filter attributes only)
// in sort-key order, pass over `skip` matches, keep the page's keys, then read just those
// items by key. Index sort keys are `<created_at>#<id>`, so time bounds are key
// conditions and the order is newest first when read backwards. A list may span several
// partitions (one per status a filter names, times the tenant's shards): each is read
// as far as the merge needs, never further, so a page reads in proportion to the page,
// not to the tenant.

export interface IndexQuery {
  index: IndexName;
  /** The index partitions holding the list, merged in sort-key order. */
  partitions: readonly string[];
  /** Inclusive lower bound of the sort key's time (RFC 3339, UTC, ms). */
  from?: string;
  /** Exclusive upper bound of the sort key's time. */
  before?: string;
  /** Attribute → accepted values; applied to the projected attributes while walking. */
  anyOf?: Readonly<Record<string, readonly string[] | undefined>>;
  /** Default true: sort key descending. */
  newestFirst?: boolean;
  /**
   * Exclusive bounds on the sort key itself, a served entry's (`<created_at>#<id>`): a
   * walk resumes below a page's last entry, or reads what came in above it
   * (functions/shared/db/list-positions/).
   */
  belowKey?: string;
  aboveKey?: string;
}

/** The Query of one partition of a walk: key conditions from its bounds, the filter on projected attributes. */
export function queryInput(query: IndexQuery, partition: string) {
  const index = TABLE_SCHEMA.indexes[query.index];
  const names: Record<string, string> = { '#pk': index.partitionKey };
  const values: Record<string, unknown> = { ':pk': partition };
  let keyCondition = '#pk = :pk';
  const lower = latest(query.from, query.aboveKey);
  const upper = earliest(query.before, query.belowKey);
  if (lower || upper) names['#sk'] = index.sortKey;
  // Sort keys are `<created_at>#<id>`: `>= from` includes created_at == from, `< before` excludes created_at == before.
  if (lower && upper) {
    keyCondition += ' AND #sk BETWEEN :from AND :before';
    Object.assign(values, { ':from': lower, ':before': upper });
  } else if (lower) {
    keyCondition += ' AND #sk >= :from';
    values[':from'] = lower;
  } else if (upper) {
    keyCondition += ' AND #sk < :before';
    values[':before'] = upper;
  }
  const conditions: string[] = [];
  for (const [attribute, wanted] of Object.entries(query.anyOf ?? {})) {
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
    ScanIndexForward: query.newestFirst === false,
  };
}

const latest = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earliest = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a < b ? a : b);
