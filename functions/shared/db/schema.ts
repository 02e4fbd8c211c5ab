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
    /**
     * A tenant's records of one kind, newest first: verify accounts (list without
     * `account_number`) and events (the event log).
     */
    byTenant: {
      name: 'gsi1',
      partitionKey: 'gsi1pk',
      sortKey: 'gsi1sk',
      /** Only what the list filters need; the page's items are then fetched by key. */
      nonKeyAttributes: [
        'id',
        'verification_status',
        'ownership_status',
        'control_status',
        'debit_status',
        'event_type',
      ],
    },
    /** Verify accounts of a tenant with one account number, newest first. */
    accountsByAccountNumber: {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      nonKeyAttributes: ['id', 'verification_status', 'ownership_status', 'control_status', 'debit_status'],
    },
    /**
     * Sparse: statement codes sent and not yet answered, oldest first, so the daily
     * expiry finds the codes past 5 days without scanning. An account leaves the index
     * when control becomes valid or canceled.
     */
    pendingStatementCodes: {
      name: 'gsi3',
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      nonKeyAttributes: ['tenant', 'id'],
    },
  },
} as const;

export type IndexName = keyof typeof TABLE_SCHEMA.indexes;
