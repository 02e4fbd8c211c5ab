import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import { returnWindowEnd } from '#domain/ach-returns';

// The banks behind the Increase fake's prenotifications (`FakeIncrease`, `receivingBank`):
// each answers by the account number's last four digits as the sandbox bank does
// (docs/sandbox.md), only over ACH, with the return code that means the sandbox's outcome
// (docs/api.md#ach-returns), so `npm start` on the fake ends where the sandbox would.

type ReturnReason = ACHPrenotification.PrenotificationReturn['return_reason_code'];

/** By the account number's last four digits: what the receiving bank returns each prenotification with. */
const RETURNS: Readonly<Record<string, { credit?: ReturnReason; debit?: ReturnReason }>> = {
  // R04: invalid_account, as the sandbox's 1111.
  '1111': { credit: 'invalid_account_number_structure', debit: 'invalid_account_number_structure' },
  // R02: closed_account.
  '2222': { credit: 'account_closed', debit: 'account_closed' },
  // R32, the bank cannot settle: failed, unavailable_financial_institution.
  '3333': { credit: 'rdfi_non_settlement', debit: 'rdfi_non_settlement' },
  // R08 on the debit alone: valid, debits blocked (debit_blocked).
  '4444': { debit: 'payment_stopped' },
  // R16, frozen on OFAC's instruction: invalid, blocked_account, debits blocked.
  '5555': {
    credit: 'account_frozen_entry_returned_per_ofac_instruction',
    debit: 'account_frozen_entry_returned_per_ofac_instruction',
  },
};

/** What the receiving bank returns a prenotification to this account with; undefined: it stays silent (valid). */
export function receivingBankReturn(
  accountNumber: string,
  indicator: ACHPrenotification['credit_debit_indicator'],
): ReturnReason | undefined {
  const returns = RETURNS[accountNumber.slice(-4)];
  return indicator === 'debit' ? returns?.debit : returns?.credit;
}

/**
 * Days compressed: the latest sending time, at this time of day, whose return window has
 * ended by `now`. A window ends at a midnight (UTC), so it cannot end "30 s after sending";
 * dated so, it has ended at once, and BankReturnWindows settles the prenotification at its
 * next local run.
 */
export function compressedSendTime(now: Date): Date {
  const sent = new Date(now);
  do sent.setUTCDate(sent.getUTCDate() - 1);
  while (returnWindowEnd(sent) > now);
  return sent;
}
