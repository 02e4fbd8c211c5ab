import type { DebitReturn, StatusReturn } from './ach-returns';

// What a Notification of Change (NACHA's COR entry) on a prenotification says about the
// account as the partner gave it (docs/api.md#notifications-of-change), by its change code,
// in Orum's statuses. A NOC is not a return: the receiving bank posted the entry to the
// account it found, and asks that future entries carry the corrected data it sends. The
// service never takes that data for the partner's: a correction of the account's numbers
// says the account as given is `invalid` (the partner may verify the corrected account
// anew); any other correction leaves the check to the prenotification's return window, as
// if no NOC had come. Codes are grouped by meaning, as in ach-returns.ts.

type WrongNumber = 'invalid_account' | 'invalid_routing';

/**
 * The bank found the account under other numbers than the partner's. Nacha has the
 * originator correct its records within six banking days or before its next entry,
 * whichever is later, so the numbers as given take no more entries: not valid, no debits.
 */
const wrongAsGiven = (reason: WrongNumber): { status: StatusReturn; debit: DebitReturn } => ({
  status: {
    verification_status: 'invalid',
    status_reason: reason,
    debit_status: 'failed',
    debit_status_reason: reason,
  },
  debit: { debit_status: 'failed', debit_status_reason: reason },
});

/** Nothing about the account: the entry posted to the account as given. */
const NOTHING = { status: undefined, debit: undefined } as const;

const MEANINGS = [
  // C01 the account number; C06 the account number and the transaction code.
  { codes: ['C01', 'C06'], ...wrongAsGiven('invalid_account') },
  // C02 the routing number; C03 it and the account number; C07 both and the transaction code.
  // The routing number is the reason when both change: Nacha gives C03 for a bank whose
  // merger moved its accounts to another routing number and numbering, or for numbers taken
  // from a payable-through check, whose routing number is not the holder's bank's.
  { codes: ['C02', 'C03', 'C07'], ...wrongAsGiven('invalid_routing') },
  // C05 the transaction code alone (savings, not checking): the partner gives no account
  // type, and the account took the entry under its numbers as given, so it is valid.
  { codes: ['C05'], ...NOTHING },
  // The entry's other fields: the receiver's name (C04, which Increase does not report) or
  // id (C09), the addenda (C13), and international entries' fields (C08, C14).
  { codes: ['C04', 'C08', 'C09', 'C13', 'C14'], ...NOTHING },
  // A refused NOC (C61–C69): an originating bank's answer to a NOC it could not apply,
  // about the NOC's own fields, never a receiving bank's word on the account.
  { codes: ['C61', 'C62', 'C63', 'C64', 'C65', 'C66', 'C67', 'C68', 'C69'], ...NOTHING },
] as const;

/** A NACHA change code this service knows the meaning of. */
export type AchChangeCode = (typeof MEANINGS)[number]['codes'][number];

type Meaning = { status?: StatusReturn; debit?: DebitReturn };

const MEANING_OF = new Map<string, Meaning>(
  MEANINGS.flatMap((meaning) => meaning.codes.map((code) => [code, meaning] as const)),
);

/** Every known code, in order. */
export const ACH_CHANGE_CODES: readonly AchChangeCode[] = MEANINGS.flatMap((meaning) => [...meaning.codes]).sort();

// An unknown code (a provider newer than this table) says nothing about the account, where
// an unknown return code fails the check: a NOC is sent only for an entry the bank posted,
// so failing the check would contradict the bank; and C01 to C07 already cover the routing
// number, the account number and the account type, so a new code is about some other
// field. The adapter logs it.

/** What a NOC on the status prenotification makes of the account, or undefined: nothing. */
export const statusChangeOf = (code: AchChangeCode | (string & {})): StatusReturn | undefined => {
  const status = MEANING_OF.get(code)?.status;
  return status && { ...status };
};

/** What a NOC on the debit prenotification makes of the account's debits, or undefined: nothing. */
export const debitChangeOf = (code: AchChangeCode | (string & {})): DebitReturn | undefined => {
  const debit = MEANING_OF.get(code)?.debit;
  return debit && { ...debit };
};
