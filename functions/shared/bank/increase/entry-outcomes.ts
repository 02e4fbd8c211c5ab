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
 * What a prenotification this adapter sent tells about its check: the outcome of the first
 * of its notices that decides the check, its return (docs/api.md#ach-returns) or a
 * notification of change that says the account as given is wrong
 * (docs/api.md#notifications-of-change). First in the bank's order, by their dates, so the
 * account ends the same whether the service read each notice when it came or read both at
 * once (a notice missed, or the window's end); a later one changes nothing. Nothing for a
 * prenotification that is not this service's, or that tells nothing yet.
 */
export function outcomesOf(prenote: ACHPrenotification, accountId: string): BankOutcome[] {
  const address = prenotificationAddress(prenote, accountId);
  if (!address) return [];
  const [first] = [returnOf(prenote, address.kind), ...changesOf(prenote, address.kind)]
    .filter((notice) => notice !== undefined)
    // Stable: on the same date, the return (listed first) decides.
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (!first) return [];
  return [
    { tenant: address.tenant, id: address.id, kind: address.kind, reference: prenote.id, returned: first.returned },
  ];
}

/** The check a prenotification of this service's answers: sent from its account, with its key and indicator. */
export function prenotificationAddress(prenote: ACHPrenotification, accountId: string) {
  const address = parseCheckKey(prenote.idempotency_key);
  if (!address || address.kind === 'credit' || prenote.account_id !== accountId) return undefined;
  if (prenote.credit_debit_indicator !== INDICATOR[address.kind]) return undefined;
  return { ...address, kind: address.kind };
}

/** A notice of the bank's that decides a check: what it sets, and when the bank sent it. */
type Decision = { returned: Partial<AccountCheck>; at: string };

function returnOf(prenote: ACHPrenotification, kind: BankCheckKind): Decision | undefined {
  const notice = prenote.prenotification_return;
  if (prenote.status !== 'returned' || !notice?.return_reason_code) return undefined;
  // A reason newer than this SDK reaches the domain as it is, which fails the check as unexpected.
  const code = NACHA_CODE_OF[notice.return_reason_code] ?? notice.return_reason_code;
  return { returned: kind === 'status' ? statusReturnOf(code) : debitReturnOf(code), at: notice.created_at };
}

/** The notifications of change that decide the check; one sent before a return stays on the returned prenotification. */
function changesOf(prenote: ACHPrenotification, kind: BankCheckKind): Decision[] {
  return prenote.notifications_of_change.flatMap(({ change_code, created_at }) => {
    // A code newer than this SDK reaches the domain as it is, which reads it as telling nothing.
    const code = NACHA_CHANGE_CODE_OF[change_code] ?? change_code;
    const change = kind === 'status' ? statusChangeOf(code) : debitChangeOf(code);
    return change ? [{ returned: change, at: created_at }] : [];
  });
}
