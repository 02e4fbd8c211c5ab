import { achText } from '#domain/ach-text';
import type { BankAccountCheckRef, BankAccountRef, BankCheckKind } from '../bank-provider';

// The fields of the entries the Increase adapter sends (./increase-bank.ts), as Nacha's
// rules and record widths want them (docs/decisions.md#the-statement-credit-is-a-micro-entry-issue-43).

/** Nacha's widths of the receiver's and the originator's names (printable ASCII, #domain/ach-text). */
export const INDIVIDUAL_NAME_MAX = 22;
export const COMPANY_NAME_MAX = 16;
/**
 * Nacha's Micro-Entry rule (since 2022): a credit under $1 sent to verify an account says
 * `ACCTVERIFY` in its Company Entry Description (docs/decisions.md#the-statement-credit-is-a-micro-entry-issue-43).
 */
export const MICRO_ENTRY_DESCRIPTION = 'ACCTVERIFY';
/** The company name statements show: a name the holder recognises, a space, the code (16 characters at most). */
export const STATEMENT_NAME_MAX = COMPANY_NAME_MAX - 5;
export const DEFAULT_STATEMENT_NAME = 'VERIFY';
export const CODE_IN_COMPANY_NAME = / ([A-Z0-9]{4})$/;

/**
 * Nacha's class for the receiver, the same for every entry to one account: a business's
 * account takes corporate entries (CCD), a person's consumer ones (PPD; a CCD debit to a
 * consumer account may come back R05).
 */
export function entryClassOf(account: BankAccountCheckRef) {
  return account.business
    ? ({ standard_entry_class_code: 'corporate_credit_or_debit', destination_account_holder: 'business' } as const)
    : ({
        standard_entry_class_code: 'prearranged_payments_and_deposit',
        destination_account_holder: 'individual',
      } as const);
}

/** The receiver's name as Nacha's field takes it; none when nothing of it can be written in ASCII. */
export function receiverName(account: BankAccountRef): { individual_name?: string } {
  const name = achText(account.account_holder_name, INDIVIDUAL_NAME_MAX);
  return name ? { individual_name: name } : {};
}

/** The prenotification's indicator of each check: a zero-dollar credit asks the status, a debit whether it takes debits. */
export const INDICATOR: Record<BankCheckKind, 'credit' | 'debit'> = { status: 'credit', debit: 'debit' };
