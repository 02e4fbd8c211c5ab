import { matchBusinessName, matchFirstName, matchLastName } from '#domain/ownership';
import type { MatchResult } from '#domain/verify-account';
import type {
  AccountCheck,
  BankAccountRef,
  BankProvider,
  OwnershipCheck,
  OwnershipClaims,
  StatementCredit,
} from './bank-provider';

// The documented sandbox bank (docs/sandbox.md): outcomes are chosen by
// the account number's last four digits, or by a magic account holder name, as in Orum's
// sandbox. Partners rely on this table: change it only with the docs.

const BY_SUFFIX: Record<string, AccountCheck> = {
  '1111': {
    verification_status: 'invalid',
    status_reason: 'invalid_account',
    debit_status: 'failed',
    debit_status_reason: 'invalid_account',
  },
  '2222': {
    verification_status: 'closed',
    status_reason: 'closed_account',
    debit_status: 'failed',
    debit_status_reason: 'closed_account',
  },
  '3333': {
    verification_status: 'failed',
    status_reason: 'unavailable_financial_institution',
    debit_status: 'failed',
    debit_status_reason: 'unavailable_financial_institution',
  },
  '4444': { verification_status: 'valid', debit_status: 'blocked', debit_status_reason: 'debit_blocked' },
  '5555': {
    verification_status: 'invalid',
    status_reason: 'blocked_account',
    debit_status: 'blocked',
    debit_status_reason: 'blocked_account',
  },
};
const VALID: AccountCheck = { verification_status: 'valid', debit_status: 'valid' };

/** Holder names that select a status whatever the account number (any case). */
const BY_HOLDER_NAME: Record<string, AccountCheck> = {
  closed: BY_SUFFIX['2222'],
  invalid: BY_SUFFIX['1111'],
  failed: BY_SUFFIX['3333'],
};

/** Accounts ending so have no bank record: every ownership field is not_found. */
const NO_RECORD_SUFFIX = '9999';
export const SANDBOX_STATEMENT_CODE = '0000';

export function sandboxAccountCheck(account: BankAccountRef): AccountCheck {
  return (
    BY_HOLDER_NAME[account.account_holder_name.trim().toLowerCase()] ??
    BY_SUFFIX[account.account_number.slice(-4)] ??
    VALID
  );
}

export const sandboxIdentifierMatch = (value: string): MatchResult =>
  value === '111111111' ? 'not_a_match' : value === '000000000' ? 'not_found' : 'match';

export const sandboxPhoneMatch = (value: string): MatchResult =>
  value.endsWith('1111') ? 'not_a_match' : value.endsWith('0000') ? 'not_found' : 'match';

export function sandboxOwnershipCheck(account: BankAccountRef, claims: OwnershipClaims): OwnershipCheck {
  const noRecord = account.account_number.endsWith(NO_RECORD_SUFFIX);
  const holder = account.account_holder_name;
  const rule = <T>(value: T | undefined, match: (v: T) => MatchResult): MatchResult | undefined =>
    value === undefined ? undefined : noRecord ? 'not_found' : match(value);
  const result: OwnershipCheck = {};
  if (claims.person) {
    const p = claims.person;
    result.person = {
      first_name_match: rule(p.first_name, (v) => matchFirstName(v, holder)) as MatchResult,
      last_name_match: rule(p.last_name, (v) => matchLastName(v, holder)) as MatchResult,
      phone_number_match: rule(p.phone_number, sandboxPhoneMatch),
      ssn_match: rule(p.ssn, sandboxIdentifierMatch),
    };
  }
  if (claims.business) {
    const b = claims.business;
    result.business = {
      business_name_match: rule(b.business_name, (v) => matchBusinessName(v, holder)) as MatchResult,
      phone_number_match: rule(b.phone_number, sandboxPhoneMatch),
      tax_id_match: rule(b.tax_id, sandboxIdentifierMatch),
    };
  }
  return result;
}

export class SandboxBank implements BankProvider {
  readonly name = 'sandbox';
  /** By the documented rules (docs/sandbox.md), the SSN and tax id included. */
  readonly checksOwnership = true;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** The sandbox answers at once, from the account number or the holder's name. */
  async checkAccount(account: BankAccountRef): Promise<AccountCheck> {
    return sandboxAccountCheck(account);
  }

  async checkDebits(account: BankAccountRef): Promise<AccountCheck> {
    return sandboxAccountCheck(account);
  }

  async checkOwnership(account: BankAccountRef, claims: OwnershipClaims): Promise<OwnershipCheck> {
    return sandboxOwnershipCheck(account, claims);
  }

  /** The sandbox "sends" the credit at once, always with code 0000. */
  async sendStatementCredit(): Promise<StatementCredit> {
    return { statementCode: SANDBOX_STATEMENT_CODE, sentAt: this.now() };
  }
}
