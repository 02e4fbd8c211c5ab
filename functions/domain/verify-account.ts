import { addBankingDays } from './banking-days';

// The verify account as the domain sees it: enums of the contract (docs/api.md#enums), what
// each verification type checks, and the rules that do not depend on storage.

export const VERIFICATION_TYPES = ['status', 'control', 'status_ownership', 'control_ownership'] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

export const VERIFICATION_STATUSES = ['pending', 'valid', 'closed', 'invalid', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const STATUS_REASONS = [
  'blocked_account',
  'closed_account',
  'deceased_party',
  'duplicated_transfer',
  'invalid_account',
  'invalid_field',
  'invalid_routing',
  'regulatory_error',
  'unavailable_financial_institution',
  'unexpected_error',
  'unsupported_transfer',
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

export const OWNERSHIP_STATUSES = ['pending', 'full', 'partial', 'not_a_match', 'not_found'] as const;
export type OwnershipStatus = (typeof OWNERSHIP_STATUSES)[number];

export const MATCH_RESULTS = ['match', 'not_a_match', 'not_found'] as const;
export type MatchResult = (typeof MATCH_RESULTS)[number];

export const CONTROL_STATUSES = ['pending', 'valid', 'canceled'] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];

export const DEBIT_STATUSES = ['pending', 'valid', 'blocked', 'failed'] as const;
export type DebitStatus = (typeof DEBIT_STATUSES)[number];

export const DEBIT_STATUS_REASONS = [...STATUS_REASONS, 'debit_blocked', 'unauthorized_transfer'] as const;
export type DebitStatusReason = (typeof DEBIT_STATUS_REASONS)[number];

export const checksControl = (type: VerificationType): boolean => type === 'control' || type === 'control_ownership';
export const checksOwnership = (type: VerificationType): boolean =>
  type === 'status_ownership' || type === 'control_ownership';

/** Wrong statement codes allowed in all before control is canceled. */
export const STATEMENT_CODE_ATTEMPTS = 3;
/** Verifications of one bank account (routing + account number) a tenant may start per window. */
export const VERIFICATIONS_PER_WINDOW = 5;
export const VERIFICATION_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A statement code expires this long after the credit carrying it was sent. */
export const STATEMENT_CODE_LIFETIME_MS = 5 * 24 * 60 * 60 * 1000;
/** Statement codes are 4 alphanumeric characters, compared case-insensitively. */
export const STATEMENT_CODE_PATTERN = /^[A-Za-z0-9]{4}$/;

export interface PersonOwnership {
  first_name: string;
  last_name: string;
  phone_number?: string;
  first_name_match?: MatchResult;
  last_name_match?: MatchResult;
  phone_number_match?: MatchResult;
  ssn_match?: MatchResult;
}

export interface BusinessOwnership {
  business_name: string;
  phone_number?: string;
  business_name_match?: MatchResult;
  phone_number_match?: MatchResult;
  tax_id_match?: MatchResult;
}

/** The stored verify account, without storage keys. */
export interface VerifyAccount {
  id: string;
  tenant: string;
  type: VerificationType;
  created_at: string;
  updated_at: string;
  account_number: string;
  routing_number: string;
  account_holder_name: string;
  email?: string;
  sender_name?: string;
  person?: PersonOwnership;
  business?: BusinessOwnership;
  /** Whether an SSN / tax id was supplied (its ciphertext is kept apart, see the repository). */
  has_ssn?: boolean;
  has_tax_id?: boolean;
  verification_status: VerificationStatus;
  status_reason?: StatusReason;
  ownership_status?: OwnershipStatus;
  control_status?: ControlStatus;
  debit_status: DebitStatus;
  debit_status_reason?: DebitStatusReason;
  estimated_verification_date: string;
  /** SHA-256 of the upper-cased statement code; set when the credit carrying it is sent. */
  statement_code_hash?: string;
  /** When the credit carrying the code was sent; submissions before it are refused. */
  statement_code_sent_at?: string;
  /** When the holder's `email` was told the code is on its way. */
  statement_code_notified_at?: string;
  control_attempts: number;
  version: number;
}

/**
 * When the first result is expected: midnight UTC today for status and ownership, the
 * next business day (Monday to Friday) when a statement-code credit must settle first.
 */
export function estimatedVerificationDate(type: VerificationType, now: Date): string {
  return addBankingDays(now, checksControl(type) ? 1 : 0).toISOString();
}

export interface NewVerifyAccount {
  id: string;
  tenant: string;
  type: VerificationType;
  account_number: string;
  routing_number: string;
  account_holder_name: string;
  email?: string;
  sender_name?: string;
  person?: { first_name: string; last_name: string; phone_number?: string; ssn?: string };
  business?: { business_name: string; phone_number?: string; tax_id?: string };
}

/** A freshly created account: every applicable status pending, nothing else known yet. */
export function newVerifyAccount(input: NewVerifyAccount, now: Date): VerifyAccount {
  const at = now.toISOString();
  const ownership = checksOwnership(input.type);
  return {
    id: input.id,
    tenant: input.tenant,
    type: input.type,
    created_at: at,
    updated_at: at,
    account_number: input.account_number,
    routing_number: input.routing_number,
    account_holder_name: input.account_holder_name,
    email: input.email,
    sender_name: input.sender_name,
    person: input.person && {
      first_name: input.person.first_name,
      last_name: input.person.last_name,
      phone_number: input.person.phone_number,
    },
    business: input.business && {
      business_name: input.business.business_name,
      phone_number: input.business.phone_number,
    },
    has_ssn: input.person?.ssn !== undefined || undefined,
    has_tax_id: input.business?.tax_id !== undefined || undefined,
    verification_status: 'pending',
    ownership_status: ownership ? 'pending' : undefined,
    control_status: checksControl(input.type) ? 'pending' : undefined,
    debit_status: 'pending',
    estimated_verification_date: estimatedVerificationDate(input.type, now),
    control_attempts: 0,
    version: 1,
  };
}

/** The encryption context that binds an SSN or tax id ciphertext to its account. */
export const ownershipSecretContext = (account: Pick<VerifyAccount, 'tenant' | 'id'>) => ({
  tenant: account.tenant,
  verify_account_id: account.id,
  purpose: 'ownership' as const,
});

/** The fields whose change partners hear about through `verify_account_updated`. */
export const VERIFY_ACCOUNT_STATUS_FIELDS = [
  'verification_status',
  'status_reason',
  'ownership_status',
  'control_status',
  'debit_status',
  'debit_status_reason',
] as const satisfies readonly (keyof VerifyAccount)[];

export function verifyAccountStatusChanged(before: Partial<VerifyAccount>, after: Partial<VerifyAccount>): boolean {
  return VERIFY_ACCOUNT_STATUS_FIELDS.some((field) => before[field] !== after[field]);
}
