import { createHash } from 'node:crypto';

/**
 * Key builders for every entity in the single table. Handlers never see these.
 *
 * Access patterns (each served without a Scan):
 * | # | pattern                                         | how                                                   |
 * |---|-------------------------------------------------|-------------------------------------------------------|
 * | 1 | get a tenant's verify account by id              | GetItem pk=T#<tenant>#VA#<id>, sk=VA                   |
 * | 2 | list a tenant's accounts newest first, by time   | Query gsi1 pk=T#<tenant>#VA, sk=<created_at>#<id>      |
 * | 3 | list a tenant's accounts with one account number | Query gsi2 pk=T#<tenant>#VAN#<digest>, same sk         |
 * | 4 | count a tenant's verifications of a bank account | Query pk=T#<tenant>#VLIMIT#<digest> (≤ 5 slot items)   |
 * | 5 | idempotency record of (tenant, route, key)       | GetItem/PutItem pk=T#<tenant>#IDEM#<route>#<key>       |
 * | 6 | tenant of an OAuth client id (alias)             | GetItem pk=CLIENT#<client id>, sk=ALIAS                |
 * | 7 | an event by id                                    | GetItem pk=T#<tenant>#EVT#<event id>, sk=EVT           |
 * | 8 | a tenant's events newest first (event log)        | Query gsi1 pk=T#<tenant>#EVT, sk=<created_at>#<id>     |
 * | 9 | statement codes sent before a time, all tenants   | Query gsi3 pk=STATEMENT_CODE_SENT, sk=<sent_at>#…      |
 *
 * Account numbers appear in keys only as a digest, so key-based tooling (metrics,
 * contributor insights, error messages quoting keys) never shows them.
 */
export { ENTITY } from './entities';

const digest = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);

export const keys = {
  verifyAccount: (tenant: string, id: string) => ({ pk: `T#${tenant}#VA#${id}`, sk: 'VA' }),
  accountsByTenant: (tenant: string) => `T#${tenant}#VA`,
  accountsByAccountNumber: (tenant: string, accountNumber: string) => `T#${tenant}#VAN#${digest(accountNumber)}`,
  /** Sort key of both account indexes: newest first when read backwards, id breaks ties. */
  accountOrder: (createdAt: string, id: string) => `${createdAt}#${id}`,
  verificationSlots: (tenant: string, routingNumber: string, accountNumber: string) =>
    `T#${tenant}#VLIMIT#${digest(`${routingNumber}:${accountNumber}`)}`,
  verificationSlot: (n: number) => `SLOT#${n}`,
  idempotency: (tenant: string, scope: string, key: string) => ({ pk: `T#${tenant}#IDEM#${scope}#${key}`, sk: 'IDEM' }),
  tenantAlias: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'ALIAS' }),
  event: (tenant: string, eventId: string) => ({ pk: `T#${tenant}#EVT#${eventId}`, sk: 'EVT' }),
  eventsByTenant: (tenant: string) => `T#${tenant}#EVT`,
  /** One partition for the sparse index: only codes awaiting an answer are in it (few). */
  pendingStatementCodes: 'STATEMENT_CODE_SENT',
  pendingStatementCode: (sentAt: string, tenant: string, id: string) => `${sentAt}#${tenant}#${id}`,
};
