import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer } from 'increase/resources/ach-transfers';
import { returnWindowEnd } from '#domain/ach-returns';

// The banks behind the Increase fake's entries (`FakeIncrease`, `receivingBank`): each
// answers by the account number's last four digits, as the sandbox bank does for
// 1111–5555 (docs/sandbox.md), only over ACH, with the return code that means the
// sandbox's outcome (docs/api.md#ach-returns), so `npm start` on the fake ends where the
// sandbox would. Three more endings show what only real rails do (docs/local.md): a
// notification of change that corrects the account number (6666) or only the account's
// type (7777), and a statement credit returned after its prenotifications stayed silent
// (8888).

type ReturnReason = ACHPrenotification.PrenotificationReturn['return_reason_code'];
type ChangeCode = ACHPrenotification.NotificationsOfChange['change_code'];

/** What the receiving bank does with one prenotification: return it, or post it and ask for a change. */
export type PrenotificationAnswer = { returned: ReturnReason } | { change: ChangeCode };

interface Answers {
  credit?: PrenotificationAnswer;
  debit?: PrenotificationAnswer;
  /** The one-cent statement credit returned with this reason. */
  statementCredit?: ACHTransfer.Return['return_reason_code'];
}

const both = (answer: PrenotificationAnswer): Answers => ({ credit: answer, debit: answer });

/** By the account number's last four digits. */
const ANSWERS: Readonly<Record<string, Answers>> = {
  // R04: invalid_account, as the sandbox's 1111.
  '1111': both({ returned: 'invalid_account_number_structure' }),
  // R02: closed_account.
  '2222': both({ returned: 'account_closed' }),
  // R32, the bank cannot settle: failed, unavailable_financial_institution.
  '3333': both({ returned: 'rdfi_non_settlement' }),
  // R08 on the debit alone: valid, debits blocked (debit_blocked).
  '4444': { debit: { returned: 'payment_stopped' } },
  // R16, frozen on OFAC's instruction: invalid, blocked_account, debits blocked.
  '5555': both({ returned: 'account_frozen_entry_returned_per_ofac_instruction' }),
  // C01: the account number as given is wrong (the bank names another): invalid, invalid_account.
  '6666': both({ change: 'incorrect_account_number' }),
  // C05: a savings account sent as checking; the account is right: valid.
  '7777': both({ change: 'incorrect_transaction_code' }),
  // R23 on the statement credit: the prenotifications stay silent (valid), the code never arrives.
  '8888': { statementCredit: 'credit_entry_refused_by_receiver' },
};

/** What the receiving bank does with a prenotification to this account; undefined: it stays silent (valid). */
export function receivingBankAnswer(
  accountNumber: string,
  indicator: ACHPrenotification['credit_debit_indicator'],
): PrenotificationAnswer | undefined {
  const answers = ANSWERS[accountNumber.slice(-4)];
  return indicator === 'debit' ? answers?.debit : answers?.credit;
}

/** The reason the receiving bank returns a statement credit to this account with; undefined: it posts it. */
export function receivingBankCreditReturn(accountNumber: string): ACHTransfer.Return['return_reason_code'] | undefined {
  return ANSWERS[accountNumber.slice(-4)]?.statementCredit;
}

/** The corrected value a notification of change carries (made up: the fake's bank knows no real account). */
export function correctionFor(
  change: ChangeCode,
  entry: { account_number: string; routing_number: string },
): Pick<
  ACHPrenotification.NotificationsOfChange,
  'corrected_account_funding' | 'corrected_account_number' | 'corrected_individual_id' | 'corrected_routing_number'
> {
  const account = /account_number/.test(change) ? `${entry.account_number.slice(0, -4)}0000` : null;
  const routing = /routing_number/.test(change) ? '021000021' : null;
  const funding = /transaction_code/.test(change) ? 'savings' : null;
  return {
    corrected_account_number: account,
    corrected_routing_number: routing,
    corrected_account_funding: funding,
    corrected_individual_id: null,
  };
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
