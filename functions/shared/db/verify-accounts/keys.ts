import { digest } from '../digest';

/**
 * Keys of verify accounts and their rate-limit slots (docs/data-model.md, patterns 1–4
 * and 9). Account numbers appear in keys only as a digest, so key-based tooling (metrics,
 * contributor insights, error messages quoting keys) never shows them.
 */
export const accountKeys = {
  account: (tenant: string, id: string) => ({ pk: `T#${tenant}#VA#${id}`, sk: 'VA' }),
  /** byTenant partition: the tenant's accounts. */
  byTenant: (tenant: string) => `T#${tenant}#VA`,
  /** byLookup partition: the tenant's accounts with one account number. */
  byAccountNumber: (tenant: string, accountNumber: string) => `T#${tenant}#VAN#${digest(accountNumber)}`,
  /** Sort key of both list indexes: newest first when read backwards, id breaks ties. */
  order: (createdAt: string, id: string) => `${createdAt}#${id}`,
  slots: (tenant: string, routingNumber: string, accountNumber: string) =>
    `T#${tenant}#VLIMIT#${digest(`${routingNumber}:${accountNumber}`)}`,
  slot: (n: number) => `SLOT#${n}`,
  /** byDueTime partition of statement codes awaiting an answer (few at a time: one partition). */
  pendingStatementCodes: 'STATEMENT_CODE_SENT',
  pendingStatementCode: (sentAt: string, tenant: string, id: string) => `${sentAt}#${tenant}#${id}`,
};
