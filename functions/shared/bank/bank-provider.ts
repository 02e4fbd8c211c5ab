import type { CreditReturn } from '#domain/ach-returns';
import type {
  DebitStatus,
  DebitStatusReason,
  MatchResult,
  StatusReason,
  VerificationStatus,
} from '#domain/verify-account';

// The bank side of a verification (docs/api.md#verify-accounts), one port for the
// sandbox bank, which answers at once, and for real rails (ACH through a provider), which
// answer days later: a prenotification is sent now and its return, or the end of its
// return window with none, decides the account (docs/decisions.md#real-rails).

export interface BankAccountRef {
  routing_number: string;
  account_number: string;
  account_holder_name: string;
}

/** Which check a prenotification answers: the account's status, or whether it takes debits. */
export type BankCheckKind = 'status' | 'debit';

/** What an entry sent for an account is: one of its checks' prenotifications, or the statement-code credit. */
export type BankEntryKind = BankCheckKind | 'credit';

/** The account a check is about, with the ids a provider's answer is routed back by. */
export interface BankAccountCheckRef extends BankAccountRef {
  readonly tenant: string;
  readonly id: string;
  /** Present when the account is a business's: its entries are corporate (CCD), a person's are consumer (PPD). */
  readonly business?: object;
}

/**
 * A check sent over the rails and not answered yet: what was sent (the provider's ids,
 * kept with the account, never shown to partners) and when the return window of the last
 * entry sent ends (no return by then is a valid account).
 */
export interface PendingCheck {
  readonly pending: true;
  readonly provider: string;
  /** The provider's id of each prenotification sent, by the check it answers. */
  readonly references: Readonly<Partial<Record<BankCheckKind, string>>>;
  /** When no return can come any more: the account is then settled as valid (debits too, unless returned). */
  readonly windowEndsAt: Date;
}

/** What a provider tells later about an entry it sent: one of a check's prenotifications, or the statement credit. */
export type BankOutcome = CheckOutcome | CreditOutcome;

/** What a provider tells later about one prenotification: returned (with the bank's reason) or not. */
export interface CheckOutcome {
  readonly tenant: string;
  /** The verify account's id. */
  readonly id: string;
  readonly kind: BankCheckKind;
  /**
   * The provider's id of the prenotification it is about: it decides only the check that
   * sent it (a late notice about an earlier check's prenotification decides nothing).
   */
  readonly reference: string;
  /** The Orum statuses the return maps to (docs/api.md#real-rails); absent while not returned. */
  readonly returned?: Partial<AccountCheck>;
}

/** The statement-code credit returned by the holder's bank, or rejected by the provider: it never reaches a statement. */
export interface CreditOutcome {
  readonly tenant: string;
  readonly id: string;
  readonly kind: 'credit';
  /** The provider's id of the transfer. */
  readonly reference: string;
  /** What it makes of the account: control canceled, and, for a return about the account itself, its statuses. */
  readonly returned: CreditReturn;
}

export interface AccountCheck {
  verification_status: Exclude<VerificationStatus, 'pending'>;
  status_reason?: StatusReason;
  debit_status: Exclude<DebitStatus, 'pending'>;
  debit_status_reason?: DebitStatusReason;
}

/**
 * What the account's owner claims, for the bank to match. `ssn` and `tax_id` are present
 * exactly when the partner supplied one; a bank that checks no ownership
 * (`checksOwnership` false) gets `IDENTIFIER_WITHHELD` in their place, never the value.
 */
export interface OwnershipClaims {
  person?: { first_name: string; last_name: string; phone_number?: string; ssn?: string };
  business?: { business_name: string; phone_number?: string; tax_id?: string };
}

/**
 * Stands for an SSN or tax id that was supplied but not decrypted, because the bank checks
 * no ownership: it answers the field (`not_found`) without ever seeing its value.
 */
export const IDENTIFIER_WITHHELD = '[withheld]';

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
  /** Four alphanumeric characters shown on the holder's statement (docs/api.md#what-a-holder-sees). */
  statementCode: string;
  sentAt: Date;
}

export interface BankProvider {
  /** The provider's name (`sandbox`, `increase`): kept with a pending check. */
  readonly name: string;
  /**
   * Whether it matches ownership against the bank's records, and so needs the SSN or tax
   * id in clear (`checkOwnership`). One that does not (ACH carries no ownership) is never
   * given their values, so a function that only settles on its rails needs no decrypt
   * grant for them (docs/decisions.md#real-rails).
   */
  readonly checksOwnership: boolean;
  /**
   * Checks an account's status and debits: the answer, or a check sent and pending. A
   * repeated call for the same account and `attempt` must not send again (the provider's
   * idempotency key comes from tenant, id and attempt).
   */
  checkAccount(account: BankAccountCheckRef, attempt: number): Promise<AccountCheck | PendingCheck>;
  /** Asks again whether the account takes debits (`POST …/debits`): the answer, or a check sent and pending. */
  checkDebits(account: BankAccountCheckRef, attempt: number): Promise<AccountCheck | PendingCheck>;
  checkOwnership(account: BankAccountRef, claims: OwnershipClaims): Promise<OwnershipCheck>;
  /**
   * A notice the provider sent to the service's webhook route (rails providers only): its
   * signature checked with the provider's scheme (a bad or stale one throws
   * `BankNoticeRefused`), then what it tells about the service's entries (none while they
   * tell nothing yet); a notice about anything else throws `BankNoticeIgnored`. Applying an
   * outcome twice changes nothing.
   */
  readNotice?(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<BankOutcome[]>;
  /**
   * At the end of a return window with no return told (rails providers only): whether the
   * prenotification was really sent and stayed unreturned (`silent`), was returned after
   * all (what the return sets), or was never sent (`unsent`: held by the provider, so its
   * silence proves nothing).
   */
  confirmSilence?(kind: BankCheckKind, reference: string): Promise<'silent' | 'unsent' | Partial<AccountCheck>>;
  /**
   * Sends the 1-cent credit carrying the statement code, a Micro-Entry in the entry class
   * of the account's prenotifications. A repeated call for the same account must return the
   * first credit instead of sending a second one: the worker may call again after a failed
   * write.
   */
  sendStatementCredit(account: BankAccountCheckRef, senderName: string | undefined): Promise<StatementCredit>;
}

/** Why a notice the provider signed tells the service nothing: the route answers 200, applies nothing and counts it. */
export type IgnoredNotice = 'unknown_object' | 'not_ours' | 'unused_category';

/**
 * A notice the provider signed about nothing of the service's: an object it no longer
 * finds, one the service did not send (another sender on the same account), or a category
 * the service does not read. Answered 200, so the provider does not send it again for ever.
 */
export class BankNoticeIgnored extends Error {
  override readonly name = 'BankNoticeIgnored';
  constructor(readonly reason: IgnoredNotice) {
    super(`the bank notice is about nothing of this service's (${reason})`);
  }
}

/** A notice that is not the provider's: a bad, missing or stale signature. The route answers 401 and applies nothing. */
export class BankNoticeRefused extends Error {
  override readonly name = 'BankNoticeRefused';
}
