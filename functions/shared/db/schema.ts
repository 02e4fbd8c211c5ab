// The single table's physical shape: key names, indexes and what each index projects.
// The CDK stack and the local runtime both build the table from this, so they cannot
// drift apart. Every access pattern, and which key or index serves it, is in
// docs/data-model.md; the key builders are beside each entity's repository.
//
// A GSI's key schema and projection cannot be changed in place, so the three indexes are
// generic and project the union of what every planned pattern filters on (verify
// accounts, persons, events); adding an entity adds key values, not indexes.

/**
 * The status attributes list filters evaluate on the index: a verify account's
 * `verification_status` and a person's `status` are list partition keys instead, so a
 * change of either moves the entry rather than also rewriting a projection.
 */
const FILTERED_STATUS_ATTRIBUTES = ['ownership_status', 'control_status', 'debit_status'] as const;

export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** DynamoDB TTL attribute (epoch seconds). */
  ttlAttribute: 'ttl',
  indexes: {
    /**
     * A tenant's records of one kind, newest first (sort key `<created_at>#<id>`): the
     * verify account list, the person list, the event log. Projects only what their
     * filters read; a page's items are then fetched by key.
     */
    byTenant: {
      name: 'gsi1',
      partitionKey: 'gsi1pk',
      sortKey: 'gsi1sk',
      nonKeyAttributes: ['id', ...FILTERED_STATUS_ATTRIBUTES, 'first_name_key', 'last_name_key', 'event_type'],
    },
    /**
     * Records sharing one exact value, newest first: a tenant's verify accounts with one
     * account number (digest); persons of every tenant with one folded name (screening
     * when the sanctions list changes).
     */
    byLookup: {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      // No verify-account status: an account's status change never rewrites this index
      // (its account-number list tests statuses on the items it reads). A person's status
      // is what the re-screen reads here.
      nonKeyAttributes: ['tenant', 'id', 'status'],
    },
    /**
     * Sparse, oldest first: work that falls due at a time, across tenants. Only items
     * waiting for such work carry its keys: statement codes awaiting an answer (daily
     * expiry after 5 days) leave the index once control is valid or canceled.
     */
    byDueTime: {
      name: 'gsi3',
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      nonKeyAttributes: ['tenant', 'id'],
    },
  },
} as const;

export type IndexName = keyof typeof TABLE_SCHEMA.indexes;

/**
 * The DynamoDB data-plane actions a function may be granted (IAM action names without
 * the `dynamodb:` prefix). A transaction needs the action of each of its items
 * (PutItem, UpdateItem, DeleteItem, ConditionCheckItem). Scan is deliberately absent:
 * no access pattern reads the whole table.
 */
export const TABLE_ACTIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'ConditionCheckItem',
] as const;
export type TableAction = (typeof TABLE_ACTIONS)[number];
