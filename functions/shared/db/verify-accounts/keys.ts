import { keyDigest } from '../digest';
import { KEY_PREFIX } from '../key-kinds';

// Keys of verify accounts and their rate-limit slots (docs/data-model.md, patterns 1–4
// and 9). Account numbers appear in keys only as a keyed digest, so key-based tooling (metrics,
// contributor insights, error messages quoting keys) never shows them.

export const PENDING_CODE_SHARDS = 8;

export const accountKeys = {
  account: (tenant: string, id: string) => ({ pk: `${KEY_PREFIX.tenantData}${tenant}#VA#${id}`, sk: 'VA' }),
  /**
   * byTenant partition: the tenant's accounts with one verification status, in one shard
   * (the status filter is a key; an unfiltered list merges every status and shard).
   */
  list: (tenant: string, status: string, shard: number) => `${KEY_PREFIX.tenantData}${tenant}#VA#${status}#${shard}`,
  /** byLookup partition: the tenant's accounts with one account number. */
  byAccountNumber: (tenant: string, accountNumber: string) =>
    `${KEY_PREFIX.tenantData}${tenant}#VAN#${keyDigest('account-number', accountNumber)}`,
  /** Sort key of both list indexes: newest first when read backwards, id breaks ties. */
  order: (createdAt: string, id: string) => `${createdAt}#${id}`,
  slots: (tenant: string, routingNumber: string, accountNumber: string) =>
    `${KEY_PREFIX.tenantData}${tenant}#VLIMIT#${keyDigest('verification-slot', `${routingNumber}:${accountNumber}`)}`,
  slot: (n: number) => `SLOT#${n}`,
  /**
   * byDueTime partition of statement codes awaiting an answer, split into
   * PENDING_CODE_SHARDS by account id so no tenant's burst of control verifications
   * meets one partition's write limit; the hourly expiry reads every shard.
   */
  pendingStatementCodes: (shard: number) => `STATEMENT_CODE_SENT#${shard}`,
  pendingStatementCode: (sentAt: string, tenant: string, id: string) => `${sentAt}#${tenant}#${id}`,
  /** A check sent over the rails and not answered yet, beside its account (./bank-waits.ts). */
  bankWait: (tenant: string, id: string, kind: string) => ({
    pk: `${KEY_PREFIX.tenantData}${tenant}#VA#${id}`,
    sk: `BANKWAIT#${kind}`,
  }),
  /** byDueTime partition of pending checks by the end of their return window, split like the statement codes. */
  bankWindows: (shard: number) => `BANK_WINDOW#${shard}`,
  bankWindow: (endsAt: string, tenant: string, id: string, kind: string) => `${endsAt}#${tenant}#${id}#${kind}`,
};
