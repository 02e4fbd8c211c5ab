import type { IdentityData, ReasonCode } from '#domain/person';

// The third-party identity vendor of Service-KYC (docs/api.md#identification), one port for
// the sandbox vendor, which answers at once, and for a real vendor, which may answer later:
// its check is then pending until the vendor's signed notice (or a later look) tells its end,
// and the person stays `created` meanwhile. BYO-KYC tenants skip it.

/** Which identification a check is for: the person and the identity revision it checks. */
export interface IdentityCheckRef {
  readonly tenant: string;
  /** The person's id. */
  readonly id: string;
  readonly identityRev: number;
  /** The vendor's id of the check sent for this revision already, if any: it is read, not sent again. */
  readonly reference?: string;
}

/** The vendor's answer: the checks the person fails (none: passed), and its id of the check, kept for audit. */
export interface VendorVerdict {
  readonly reasons: ReasonCode[];
  /** The vendor's id of the check (`idv_…`); the sandbox has none. */
  readonly reference?: string;
}

/** A check the vendor has not finished: its id, kept with the person until the vendor answers. */
export interface PendingIdentityCheck {
  readonly pending: true;
  readonly vendor: string;
  readonly reference: string;
}

export type VendorAnswer = VendorVerdict | PendingIdentityCheck;

export const isPendingCheck = (answer: VendorAnswer): answer is PendingIdentityCheck => 'pending' in answer;

/** What a vendor's notice tells: the identification whose check changed (its answer is read again by id). */
export interface IdentityNotice extends IdentityCheckRef {
  readonly reference: string;
}

export interface IdentityVendor {
  /** The vendor's name (`sandbox`, `plaid`): kept with a pending check. */
  readonly name: string;
  /**
   * Checks the person's identity data against the vendor's sources: the reasons it fails,
   * or a check still pending. A repeated call for the same check (tenant, person, identity
   * revision) must not pay for a second one; with `reference` the check is read, not sent.
   */
  verify(data: IdentityData, check: IdentityCheckRef): Promise<VendorAnswer>;
  /**
   * A notice the vendor sent to the service's webhook route (real vendors only): its
   * signature checked with the vendor's own scheme (a bad or stale one throws
   * `IdentityNoticeRefused`), the object it names read again by id, and the identification
   * it is about; a notice about anything else throws `IdentityNoticeIgnored`.
   */
  readNotice?(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<IdentityNotice[]>;
}

/** Why a notice the vendor signed tells the service nothing: the route answers 200 and counts it. */
export type IgnoredIdentityNotice = 'unknown_object' | 'not_ours' | 'unused_kind';

/** A notice the vendor signed about nothing of the service's: answered 200, so the vendor does not send it again. */
export class IdentityNoticeIgnored extends Error {
  override readonly name = 'IdentityNoticeIgnored';
  constructor(readonly reason: IgnoredIdentityNotice) {
    super(`the identity vendor's notice is about nothing of this service's (${reason})`);
  }
}

/** A notice that is not the vendor's: a bad, missing or stale signature. The route answers 401. */
export class IdentityNoticeRefused extends Error {
  override readonly name = 'IdentityNoticeRefused';
}
