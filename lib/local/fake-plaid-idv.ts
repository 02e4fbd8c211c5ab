import type {
  AddressPurposeLabel,
  IdentityVerificationCreateRequest,
  IdentityVerificationGetResponse,
  IdentityVerificationStatus,
  IdentityVerificationStepStatus,
  KYCCheckDetails,
  MatchSummaryCode,
  POBoxStatus,
} from 'plaid';

// Plaid's Identity Verification objects as the fake (./fake-plaid.ts) makes them: the SDK's
// own response type, so an SDK change breaks this file's build; the refusals Plaid answers
// 400 with; and the KYC check's answer, chosen by the SSN's last four digits
// (docs/sandbox.md#persons-on-the-plaid-fake).

export type Idv = IdentityVerificationGetResponse;
export type Refusal = {
  status: 400;
  error_type: 'INVALID_REQUEST' | 'INVALID_INPUT';
  error_code: string;
  field: string;
};

/** A value of one of the SDK's string enums (the SDK's enums are types here: nothing of it is bundled). */
const as = <E extends string>(value: `${E}`): E => value as unknown as E;

const E164 = /^\+[1-9]\d{7,14}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const COUNTRY = /^[A-Z]{2}$/;

/** The first field Plaid refuses a create for, or undefined. */
export function refusal(request: IdentityVerificationCreateRequest, templateId: string): Refusal | undefined {
  const invalid = (field: string, error_code = 'INVALID_FIELD'): Refusal => ({
    status: 400,
    error_type: 'INVALID_REQUEST',
    error_code,
    field,
  });
  if (typeof request.template_id !== 'string' || request.template_id !== templateId) return invalid('template_id');
  if (typeof request.gave_consent !== 'boolean' || typeof request.is_shareable !== 'boolean') {
    return invalid('gave_consent', 'MISSING_FIELDS');
  }
  const id = request.client_user_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128) return invalid('client_user_id');
  const user = request.user;
  if (!user) return undefined;
  if (user.date_of_birth !== undefined && !DATE.test(user.date_of_birth)) return invalid('user.date_of_birth');
  if (user.phone_number != null && !E164.test(user.phone_number)) return invalid('user.phone_number');
  if (user.address && !COUNTRY.test(user.address.country)) return invalid('user.address.country');
  if (user.name && (!user.name.given_name || !user.name.family_name)) return invalid('user.name');
  const number = user.id_number;
  if (number && (number.type as string) === 'us_ssn' && !/^\d{9}$/.test(number.value)) return invalid('user.id_number');
  return undefined;
}

/** What the fake's data sources say of a person, by the SSN's last four digits. */
export type FakeAnswer = 'success' | 'failed' | 'review';

/** The KYC check's answer for the SSN's serial: a field that does not match, or none. */
export function kycAnswer(request: IdentityVerificationCreateRequest): { answer: FakeAnswer; kyc: KYCCheckDetails } {
  const serial = request.user?.id_number?.value.slice(-4) ?? '';
  const given = (field: unknown): `${MatchSummaryCode}` => (field ? 'match' : 'no_input');
  const user = request.user;
  const summaries: Record<'name' | 'date_of_birth' | 'id_number' | 'address' | 'phone_number', `${MatchSummaryCode}`> =
    {
      name: given(user?.name),
      date_of_birth: given(user?.date_of_birth),
      id_number: given(user?.id_number),
      address: given(user?.address),
      phone_number: given(user?.phone_number),
    };
  const mismatch = ({ '0002': 'id_number', '0003': 'name', '0004': 'date_of_birth', '0005': 'address' } as const)[
    serial as '0002'
  ];
  if (mismatch) summaries[mismatch] = 'no_match';
  if (serial === '0006' && user?.phone_number) summaries.phone_number = 'no_match';
  if (serial === '0007')
    for (const field of Object.keys(summaries) as (keyof typeof summaries)[]) summaries[field] = 'no_data';
  const poBox = serial === '0008';
  const failed = mismatch !== undefined || serial === '0007' || poBox || (serial === '0006' && !!user?.phone_number);
  const kyc: KYCCheckDetails = {
    status: failed ? 'failed' : 'success',
    name: { summary: as<MatchSummaryCode>(summaries.name) },
    date_of_birth: { summary: as<MatchSummaryCode>(summaries.date_of_birth) },
    id_number: { summary: as<MatchSummaryCode>(summaries.id_number) },
    phone_number: {
      summary: as<MatchSummaryCode>(summaries.phone_number),
      area_code: as<MatchSummaryCode>(summaries.phone_number),
    },
    address: {
      summary: as<MatchSummaryCode>(summaries.address),
      po_box: as<POBoxStatus>(poBox ? 'yes' : 'no'),
      type: as<AddressPurposeLabel>('residential'),
    },
  };
  return { answer: failed ? 'failed' : serial === '0009' ? 'review' : 'success', kyc };
}

const STEPS = [
  'accept_tos',
  'verify_sms',
  'kyc_check',
  'documentary_verification',
  'selfie_check',
  'watchlist_screening',
  'risk_check',
] as const;

/** The steps of a KYC-only template: consent skipped (given), the KYC check in its state, every other not applicable. */
export function steps(kyc: `${IdentityVerificationStepStatus}`): Idv['steps'] {
  const all = Object.fromEntries(STEPS.map((step) => [step, as<IdentityVerificationStepStatus>('not_applicable')]));
  return {
    ...all,
    accept_tos: as<IdentityVerificationStepStatus>('skipped'),
    kyc_check: as<IdentityVerificationStepStatus>(kyc),
  } as Idv['steps'];
}

/** A new IDV, `active` (its KYC check running), echoing the person as Plaid does. */
export function newIdv(request: IdentityVerificationCreateRequest, id: string, now: Date): Idv {
  const user = request.user;
  return {
    id,
    client_user_id: request.client_user_id as string,
    created_at: now.toISOString(),
    completed_at: null,
    previous_attempt_id: null,
    shareable_url: null,
    template: { id: request.template_id, version: 1 },
    user: {
      phone_number: user?.phone_number ?? null,
      date_of_birth: user?.date_of_birth ?? null,
      ip_address: null,
      email_address: user?.email_address ?? null,
      name: user?.name ?? null,
      address: user?.address
        ? {
            street: user.address.street ?? null,
            street2: user.address.street2 ?? null,
            city: user.address.city ?? null,
            region: user.address.region ?? null,
            postal_code: user.address.postal_code ?? null,
            country: user.address.country,
          }
        : null,
      id_number: user?.id_number ?? null,
    },
    status: as<IdentityVerificationStatus>('active'),
    steps: steps('active'),
    documentary_verification: null,
    selfie_check: null,
    kyc_check: null,
    risk_check: null,
    verify_sms: null,
    watchlist_screening_id: null,
    beacon_user_id: null,
    user_id: null,
    redacted_at: null,
    request_id: `request_${id}`,
  };
}

/** The IDV once its KYC check ended: `success`, `failed`, or held for a reviewer (`pending_review`). */
export function finished(idv: Idv, kyc: KYCCheckDetails, status: 'success' | 'failed' | 'pending_review', now: Date) {
  idv.kyc_check = kyc;
  idv.status = as<IdentityVerificationStatus>(status);
  idv.steps = steps(status === 'pending_review' ? 'pending_review' : kyc.status === 'success' ? 'success' : 'failed');
  if (status !== 'pending_review') idv.completed_at = now.toISOString();
}
