/**
 * The single table's physical shape: key names, indexes and what each index projects.
 * The CDK stack and the local runtime both build the table from this, so they cannot
 * drift apart. Entity layouts and access patterns are documented in `./keys.ts`.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** DynamoDB TTL attribute (epoch seconds). */
  ttlAttribute: 'ttl',
  indexes: {
    /** Verify accounts of a tenant, newest first (list without `account_number`). */
    accountsByTenant: {
      name: 'gsi1',
      partitionKey: 'gsi1pk',
      sortKey: 'gsi1sk',
      /** Only what the list filters need; the page's items are then fetched by key. */
      nonKeyAttributes: ['id', 'verification_status', 'ownership_status', 'control_status', 'debit_status'],
    },
    /** Verify accounts of a tenant with one account number, newest first. */
    accountsByAccountNumber: {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      nonKeyAttributes: ['id', 'verification_status', 'ownership_status', 'control_status', 'debit_status'],
    },
  },
} as const;

export type IndexName = keyof typeof TABLE_SCHEMA.indexes;
