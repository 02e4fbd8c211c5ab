import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer } from 'increase/resources/ach-transfers';
import { debitChangeOf, statusChangeOf } from '#domain/ach-changes';
import { creditReturnOf, debitReturnOf, statusReturnOf } from '#domain/ach-returns';
import { type AccountCheck, type BankCheckKind, BankNoticeIgnored, type BankOutcome } from '../bank-provider';
import { NACHA_CHANGE_CODE_OF } from './change-codes';
import { parseCheckKey } from './check-key';
import { INDICATOR } from './entry-fields';
import { NACHA_CODE_OF } from './return-codes';

// What the entries the Increase adapter sent (./increase-bank.ts) tell, as Increase shows
// them when re-fetched: a prenotification's return or notification of change, a statement
// credit's return or rejection (docs/api.md#real-rails).

/**
 * What a statement credit this adapter sent tells: returned by the holder's bank (what its
 * return code makes of the account), or rejected or canceled by Increase; nothing while it
 * waits for approval, is held for review, or is submitted.
 */
export function creditOutcomesOf(transfer: ACHTransfer, accountId: string): BankOutcome[] {
  const address = parseCheckKey(transfer.idempotency_key);
  if (address?.kind !== 'credit' || transfer.account_id !== accountId) throw new BankNoticeIgnored('not_ours');
  const outcome = { tenant: address.tenant, id: address.id, kind: 'credit', reference: transfer.id } as const;
  if (transfer.status === 'returned' && transfer.return) {
    const reason = transfer.return.return_reason_code;
    const code = NACHA_CODE_OF[reason as keyof typeof NACHA_CODE_OF] ?? transfer.return.raw_return_reason_code;
    return [{ ...outcome, returned: creditReturnOf(code) }];
  }
  if (transfer.status === 'rejected' || transfer.status === 'canceled') {
    return [{ ...outcome, returned: { control_status: 'canceled' } }];
  }
  return [];
}

/**
 * What a prenotification this adapter sent tells about its check: its return's outcome
 * (docs/api.md#ach-returns), or, while it stays submitted, that of the first notification
 * of change that says the account as given is wrong (docs/api.md#notifications-of-change).
 * Nothing for a prenotification that is not this service's, or that tells nothing yet.
 */
export function outcomesOf(prenote: ACHPrenotification, accountId: string): BankOutcome[] {
  const address = prenotificationAddress(prenote, accountId);
  if (!address) return [];
  const returned = returnOf(prenote, address.kind) ?? changeOf(prenote, address.kind);
  if (!returned) return [];
  return [{ tenant: address.tenant, id: address.id, kind: address.kind, reference: prenote.id, returned }];
}

/** The check a prenotification of this service's answers: sent from its account, with its key and indicator. */
export function prenotificationAddress(prenote: ACHPrenotification, accountId: string) {
  const address = parseCheckKey(prenote.idempotency_key);
  if (!address || address.kind === 'credit' || prenote.account_id !== accountId) return undefined;
  if (prenote.credit_debit_indicator !== INDICATOR[address.kind]) return undefined;
  return { ...address, kind: address.kind };
}

function returnOf(prenote: ACHPrenotification, kind: BankCheckKind): Partial<AccountCheck> | undefined {
  const reason = prenote.prenotification_return?.return_reason_code;
  if (prenote.status !== 'returned' || !reason) return undefined;
  // A reason newer than this SDK reaches the domain as it is, which fails the check as unexpected.
  const code = NACHA_CODE_OF[reason] ?? reason;
  return kind === 'status' ? statusReturnOf(code) : debitReturnOf(code);
}

function changeOf(prenote: ACHPrenotification, kind: BankCheckKind): Partial<AccountCheck> | undefined {
  if (prenote.status !== 'submitted') return undefined;
  for (const { change_code } of prenote.notifications_of_change) {
    // A code newer than this SDK reaches the domain as it is, which reads it as telling nothing.
    const code = NACHA_CHANGE_CODE_OF[change_code] ?? change_code;
    const change = kind === 'status' ? statusChangeOf(code) : debitChangeOf(code);
    if (change) return change;
  }
  return undefined;
}
