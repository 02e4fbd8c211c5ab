import { addSettlementDays } from './banking-days';
import type { DebitStatusReason, StatusReason, VerificationStatus } from './verify-account';

// What the return of a prenotification says about the account (docs/api.md#ach-returns),
// by its NACHA return code, in Orum's statuses and reasons; and when no return can come
// any more. Codes are grouped by what they mean, so each meaning's outcome is written once.
// A status prenotification (a zero-dollar credit) decides the whole account; a debit
// prenotification decides only whether it takes debits. A code that makes no sense for a
// prenotification (funds, checks, international entries, returns of returns) fails the
// check as `unexpected_error` instead of guessing.

/** A status prenotification's return: the account is not valid, and takes no debits. */
export interface StatusReturn {
  verification_status: Exclude<VerificationStatus, 'pending' | 'valid'>;
  status_reason: StatusReason;
  debit_status: 'failed' | 'blocked';
  debit_status_reason: DebitStatusReason;
}

/**
 * A returned statement credit: the code never reached the statement, so control is
 * canceled; and where the return says the account itself is gone or wrong (what would make
 * a status prenotification's return `closed` or `invalid`), the account says so too.
 */
export type CreditReturn = { control_status: 'canceled' } & Partial<StatusReturn>;

/** A debit prenotification's return: what it says about debits alone. */
export interface DebitReturn {
  debit_status: 'failed' | 'blocked';
  debit_status_reason: DebitStatusReason;
}

const account = (
  verification_status: StatusReturn['verification_status'],
  reason: StatusReason,
  debit_status: DebitReturn['debit_status'] = 'failed',
): StatusReturn => ({ verification_status, status_reason: reason, debit_status, debit_status_reason: reason });
const debits = (debit_status: DebitReturn['debit_status'], debit_status_reason: DebitStatusReason): DebitReturn => ({
  debit_status,
  debit_status_reason,
});

/** Funds, checks, enrolments, international entries and returns of returns: not about a prenotification. */
const UNEXPECTED = {
  // biome-ignore format: a block of codes reads better than one a line
  codes: [
    'R01', 'R06', 'R09', 'R27', 'R30', 'R31', 'R33', 'R35', 'R36', 'R37', 'R38', 'R39', 'R40', 'R41',
    'R42', 'R43', 'R44', 'R46', 'R47', 'R50', 'R51', 'R52', 'R53', 'R61', 'R62', 'R67', 'R68', 'R70',
    'R71', 'R72', 'R73', 'R74', 'R75', 'R76', 'R77', 'R80', 'R81', 'R82', 'R83', 'R84', 'R85',
  ],
  status: account('failed', 'unexpected_error'),
  debit: debits('failed', 'unexpected_error'),
} as const;

const MEANINGS = [
  // The account is gone: closed, or sold to another bank (its number there no longer works).
  { codes: ['R02', 'R12'], status: account('closed', 'closed_account'), debit: debits('failed', 'closed_account') },
  { codes: ['R14', 'R15'], status: account('closed', 'deceased_party'), debit: debits('failed', 'deceased_party') },
  { codes: ['R03', 'R04'], status: account('invalid', 'invalid_account'), debit: debits('failed', 'invalid_account') },
  { codes: ['R13', 'R28'], status: account('invalid', 'invalid_routing'), debit: debits('failed', 'invalid_routing') },
  // Frozen by the bank, or returned on OFAC's instruction: the same answer as the sandbox's 5555.
  {
    codes: ['R16'],
    status: account('invalid', 'blocked_account', 'blocked'),
    debit: debits('blocked', 'blocked_account'),
  },
  // Not open to ACH (a savings account with transaction limits): no transfer reaches it.
  { codes: ['R20'], status: account('invalid', 'unsupported_transfer'), debit: debits('blocked', 'debit_blocked') },
  // The holder stopped or refused the entry: the account exists, but takes nothing from us.
  {
    codes: ['R08', 'R23'],
    status: account('failed', 'unsupported_transfer'),
    debit: debits('blocked', 'debit_blocked'),
  },
  {
    codes: ['R05', 'R07', 'R10', 'R11', 'R29'],
    status: account('failed', 'unsupported_transfer'),
    debit: debits('blocked', 'unauthorized_transfer'),
  },
  // Our entry was malformed or refused for its contents: the account is not to blame.
  {
    codes: ['R17', 'R18', 'R19', 'R21', 'R22', 'R25', 'R26', 'R45', 'R69'],
    status: account('failed', 'invalid_field'),
    debit: debits('failed', 'invalid_field'),
  },
  { codes: ['R24'], status: account('failed', 'duplicated_transfer'), debit: debits('failed', 'duplicated_transfer') },
  { codes: ['R34'], status: account('failed', 'regulatory_error'), debit: debits('failed', 'regulatory_error') },
  {
    codes: ['R32'],
    status: account('failed', 'unavailable_financial_institution'),
    debit: debits('failed', 'unavailable_financial_institution'),
  },
  UNEXPECTED,
] as const;

/** A NACHA return code this service knows the meaning of. */
export type AchReturnCode = (typeof MEANINGS)[number]['codes'][number];

const MEANING_OF = new Map<string, (typeof MEANINGS)[number]>(
  MEANINGS.flatMap((meaning) => meaning.codes.map((code) => [code, meaning] as const)),
);

/** Every known code, in order. */
export const ACH_RETURN_CODES: readonly AchReturnCode[] = MEANINGS.flatMap((meaning) => [...meaning.codes]).sort();

/** An unknown code (a provider newer than this table) fails the check like a meaningless one. */
const meaningOf = (code: string) => MEANING_OF.get(code) ?? UNEXPECTED;

/** What a returned status prenotification makes of the account. */
export const statusReturnOf = (code: AchReturnCode | (string & {})): StatusReturn => ({ ...meaningOf(code).status });

/** What a returned debit prenotification makes of the account's debits. */
export const debitReturnOf = (code: AchReturnCode | (string & {})): DebitReturn => ({ ...meaningOf(code).debit });

/** What a returned statement credit makes of the account (docs/api.md#ach-returns). */
export function creditReturnOf(code: AchReturnCode | (string & {})): CreditReturn {
  const status = statusReturnOf(code);
  const accountAtFault = status.verification_status === 'closed' || status.verification_status === 'invalid';
  return { control_status: 'canceled', ...(accountAtFault && status) };
}

/**
 * NACHA has the receiving bank return an entry by the opening of the second banking day
 * after its settlement date, which is the banking day after sending: a return reaches the
 * provider by the morning of the third banking day after sending at the latest. The window
 * runs to the end of that day, the rest of it a margin for the provider's notice. The
 * days are settlement days: Federal Reserve holidays do not count (docs/api.md#ach-returns).
 */
export const RETURN_WINDOW_BANKING_DAYS = 3;

/** When no return of a prenotification sent at `sentAt` can come any more: midnight UTC ending its window's last day. */
export const returnWindowEnd = (sentAt: Date): Date =>
  new Date(addSettlementDays(sentAt, RETURN_WINDOW_BANKING_DAYS).getTime() + DAY_MS);

const DAY_MS = 24 * 60 * 60 * 1000;
