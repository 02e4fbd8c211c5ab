import type {
  DebitStatus,
  DebitStatusReason,
  MatchResult,
  StatusReason,
  VerificationStatus,
} from '#domain/verify-account';

// The bank side of a verification. The sandbox bank is the only implementation today;
// a real provider implements the same port.

export interface BankAccountRef {
  routing_number: string;
  account_number: string;
  account_holder_name: string;
}

export interface AccountCheck {
  verification_status: Exclude<VerificationStatus, 'pending'>;
  status_reason?: StatusReason;
  debit_status: Exclude<DebitStatus, 'pending'>;
  debit_status_reason?: DebitStatusReason;
}

export interface OwnershipClaims {
  person?: { first_name: string; last_name: string; phone_number?: string; ssn?: string };
  business?: { business_name: string; phone_number?: string; tax_id?: string };
}

/** Per-field results for the fields that were supplied (and only those). */
export interface OwnershipCheck {
  person?: {
    first_name_match: MatchResult;
    last_name_match: MatchResult;
    phone_number_match?: MatchResult;
    ssn_match?: MatchResult;
  };
  business?: { business_name_match: MatchResult; phone_number_match?: MatchResult; tax_id_match?: MatchResult };
}

export interface StatementCredit {
  /** Four alphanumeric characters shown in the statement descriptor. */
  statementCode: string;
  sentAt: Date;
}

export interface BankProvider {
  checkAccount(account: BankAccountRef): Promise<AccountCheck>;
  checkOwnership(account: BankAccountRef, claims: OwnershipClaims): Promise<OwnershipCheck>;
  /**
   * Sends the 1-cent credit carrying the statement code. `idempotencyKey` (the verify
   * account id) must make a repeated call return the first credit instead of sending a
   * second one: the worker may call again after a failed write.
   */
  sendStatementCredit(
    account: BankAccountRef,
    senderName: string | undefined,
    idempotencyKey: string,
  ): Promise<StatementCredit>;
}
