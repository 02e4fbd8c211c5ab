import type {
  AddressPurposeLabel,
  IdentityVerificationGetResponse,
  IdentityVerificationStatus,
  KYCCheckDetails,
  MatchSummaryCode,
  POBoxStatus,
} from 'plaid';
import type { ReasonCode } from '#domain/person';

// What Plaid's Identity Verification answers about a KYC check (docs/api.md#plaids-answers),
// read from the SDK's own types (type-only: no bundle carries the SDK). Keyed by the SDK's
// enums, so an SDK that adds a status or a summary fails the type-check here until it is
// mapped; test/unit/shared/identity-vendor/plaid/kyc-outcomes.test.ts renders the table of
// docs/api.md from these.

/** An IDV as this service reads it: never its `user` (the PII Plaid echoes back). */
export type PlaidIdv = Pick<IdentityVerificationGetResponse, 'id' | 'client_user_id' | 'status' | 'kyc_check'> & {
  readonly template: { readonly id: string };
};
export type IdvStatus = `${IdentityVerificationStatus}`;
export type Summary = `${MatchSummaryCode}`;
/** The fields of the KYC check, each with a match summary. */
export type KycField = Exclude<keyof KYCCheckDetails, 'status'>;

/**
 * What each status of the IDV means: `success` passes, `failed` rejects with the reasons
 * its KYC check gives; `active` (the check still running) and `pending_review` (held for
 * a reviewer in Plaid's dashboard) leave the person `created` until Plaid tells its end;
 * `expired` and `canceled` (a session abandoned or stopped in the dashboard) are no answer
 * about the person at all: the identification fails and is retried, then dead-lettered,
 * never a rejection for the vendor's fault.
 */
export const STATUS_OUTCOME: Readonly<Record<IdvStatus, 'passed' | 'failed' | 'pending' | 'unusable'>> = {
  success: 'passed',
  failed: 'failed',
  active: 'pending',
  pending_review: 'pending',
  expired: 'unusable',
  canceled: 'unusable',
};

/** The reason a field gives when a failed check found it not to match (`no_match`). */
export const FIELD_REASON: Readonly<Record<KycField, ReasonCode>> = {
  name: 'invalid_name',
  date_of_birth: 'invalid_dob',
  id_number: 'invalid_ssn',
  address: 'invalid_address',
  phone_number: 'invalid_phone',
};

/**
 * What a field's summary says in a failed check: only `no_match` is a mismatch. A
 * `partial_match` was judged by Plaid's rules (the template's), `no_data` means its sources
 * hold nothing to compare, `no_input` that the service sent none (a phone that is not a US
 * number in E.164).
 */
export const SUMMARY_MISMATCH: Readonly<Record<Summary, boolean>> = {
  match: false,
  partial_match: false,
  no_match: true,
  no_data: false,
  no_input: false,
};

/** An address Plaid knows as a P.O. box, or as commercial, is no home address (`invalid_address_type`). */
export const PO_BOX_OF: Readonly<Record<`${POBoxStatus}`, boolean>> = { yes: true, no: false, no_data: false };
export const COMMERCIAL_OF: Readonly<Record<`${AddressPurposeLabel}`, boolean>> = {
  residential: false,
  commercial: true,
  no_data: false,
};

/** A failed check in which no field is a mismatch: Plaid's sources could not verify the identity. */
export const UNVERIFIED: ReasonCode = 'unverified_identity';

export type KycVerdict =
  | { readonly outcome: 'passed' | 'failed'; readonly reasons: ReasonCode[] }
  | { readonly outcome: 'pending' | 'unusable'; readonly status: IdvStatus };

/** The verdict of an IDV: its reasons when final, else what keeps it from being one. */
export function verdictOf(idv: Pick<PlaidIdv, 'status' | 'kyc_check'>): KycVerdict {
  const outcome = STATUS_OUTCOME[idv.status as IdvStatus] ?? 'unusable';
  if (outcome === 'pending' || outcome === 'unusable') return { outcome, status: idv.status as IdvStatus };
  if (outcome === 'passed') return { outcome, reasons: [] };
  return { outcome, reasons: failedReasons(idv.kyc_check) };
}

function failedReasons(kyc: KYCCheckDetails | null): ReasonCode[] {
  if (!kyc) return [UNVERIFIED];
  const reasons = (Object.keys(FIELD_REASON) as KycField[])
    .filter((field) => SUMMARY_MISMATCH[kyc[field]?.summary as Summary] === true)
    .map((field) => FIELD_REASON[field]);
  if (
    PO_BOX_OF[kyc.address?.po_box as `${POBoxStatus}`] ||
    COMMERCIAL_OF[kyc.address?.type as `${AddressPurposeLabel}`]
  ) {
    reasons.push('invalid_address_type');
  }
  return reasons.length > 0 ? reasons : [UNVERIFIED];
}
