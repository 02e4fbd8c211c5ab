import type {
  IDNumberType,
  IdentityVerificationCreateRequest,
  IdentityVerificationCreateRequestUser,
  WebhookVerificationKeyGetResponse,
} from 'plaid';
import * as z from 'zod/mini';
import type { IdentityData } from '#domain/person';
import {
  type IdentityCheckRef,
  type IdentityNotice,
  IdentityNoticeIgnored,
  type IdentityVendor,
  type VendorAnswer,
} from '../identity-vendor';
import type { PlaidEnvironment } from '../vendors';
import { clientUserIdOf, parseClientUserId } from './client-user-id';
import { type PlaidIdv, verdictOf } from './kyc-outcomes';
import { PLAID_BASE_URLS, PlaidHttp, type PlaidHttpOptions, PlaidRequestFailed } from './plaid-http';
import { PlaidWebhookVerifier } from './webhook-verification';

// Service-KYC through Plaid's Identity Verification (docs/decisions.md#plaid-identity-verification-for-service-kyc-issue-45):
// one IDV per identity revision, created server-side with the person's data, consent given
// (the partner collected it) and no shareable URL, on a template whose only step is the KYC
// check, so it runs at once with no end-user step. `is_idempotent` with the revision's
// `client_user_id` makes a repeated create answer the first IDV; a known IDV is read by id.
// Nothing Plaid answers is kept but its id and the verdict: its `user` (the PII it echoes)
// is never read, logged or stored, and errors carry only the operation, status and code.

export interface PlaidVendorOptions extends Omit<PlaidHttpOptions, 'baseURL'> {
  readonly templateId: string;
  /** @default 'sandbox' */
  readonly environment?: PlaidEnvironment;
  /** A stand-in for Plaid's API (tests, `npm start`); when given, `environment` is ignored. */
  readonly baseURL?: string;
  readonly now?: () => Date;
}

/** What a notice is: Identity Verification's STATUS_UPDATED names the IDV whose status changed. */
const notice = z.object({
  webhook_type: z.literal('IDENTITY_VERIFICATION'),
  webhook_code: z.literal('STATUS_UPDATED'),
  identity_verification_id: z.string().check(z.minLength(1), z.maxLength(128)),
});

/** A check Plaid ended without an answer about the person (`expired`, `canceled`): retried, then dead-lettered. */
export class PlaidCheckUnanswered extends Error {
  override readonly name = 'PlaidCheckUnanswered';
}

export class PlaidIdentityVendor implements IdentityVendor {
  readonly name = 'plaid';
  private readonly http: PlaidHttp;
  private readonly templateId: string;
  private readonly webhooks: PlaidWebhookVerifier;

  constructor({ templateId, environment = 'sandbox', baseURL, now, ...http }: PlaidVendorOptions) {
    this.http = new PlaidHttp({ ...http, baseURL: baseURL ?? PLAID_BASE_URLS[environment] });
    this.templateId = templateId;
    this.webhooks = new PlaidWebhookVerifier((kid) => this.verificationKey(kid), now);
  }

  async verify(data: IdentityData, check: IdentityCheckRef): Promise<VendorAnswer> {
    const idv = check.reference ? await this.read(check.reference) : await this.create(data, check);
    if (idv.client_user_id !== clientUserIdOf(check)) {
      throw new PlaidRequestFailed('reading the check of this identification', undefined, 'OTHER', 'NOT_THIS_CHECK');
    }
    const verdict = verdictOf(idv);
    if ('reasons' in verdict) return { reasons: verdict.reasons, reference: idv.id };
    if (verdict.outcome === 'pending') return { pending: true, vendor: this.name, reference: idv.id };
    throw new PlaidCheckUnanswered(`Plaid ended check ${idv.id} without an answer (${verdict.status})`);
  }

  /** Plaid's STATUS_UPDATED: signature checked, the IDV read again by id, its identification named. */
  async readNotice(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<IdentityNotice[]> {
    await this.webhooks.verify(body, headers);
    const parsed = notice.safeParse(parseJson(body));
    if (!parsed.success) throw new IdentityNoticeIgnored('unused_kind');
    let idv: PlaidIdv;
    try {
      idv = await this.read(parsed.data.identity_verification_id);
    } catch (error) {
      if (error instanceof PlaidRequestFailed && (error.status === 400 || error.status === 404)) {
        throw new IdentityNoticeIgnored('unknown_object');
      }
      throw error;
    }
    const check = parseClientUserId(idv.client_user_id);
    if (!check || idv.template.id !== this.templateId) throw new IdentityNoticeIgnored('not_ours');
    return [{ ...check, reference: idv.id }];
  }

  private create(data: IdentityData, check: IdentityCheckRef): Promise<PlaidIdv> {
    const request: IdentityVerificationCreateRequest = {
      client_user_id: clientUserIdOf(check),
      template_id: this.templateId,
      gave_consent: true,
      is_shareable: false,
      is_idempotent: true,
      user: plaidUser(data),
    };
    return this.http.post<PlaidIdv>('creating the identity check', '/identity_verification/create', request);
  }

  private read(id: string): Promise<PlaidIdv> {
    return this.http.post<PlaidIdv>('reading the identity check', '/identity_verification/get', {
      identity_verification_id: id,
    });
  }

  private async verificationKey(kid: string) {
    try {
      const answer = await this.http.post<WebhookVerificationKeyGetResponse>(
        'reading a webhook key',
        '/webhook_verification_key/get',
        { key_id: kid },
      );
      return answer.key;
    } catch (error) {
      if (error instanceof PlaidRequestFailed && error.status === 400) return undefined;
      throw error;
    }
  }
}

/** Plaid's id number type of an SSN (the SDK's enum, as its value: the SDK is not bundled). */
const US_SSN = 'us_ssn' satisfies `${IDNumberType}`;

/** The person as Plaid's KYC check takes it: only what it checks (no email), US formats. */
export function plaidUser(data: IdentityData): IdentityVerificationCreateRequestUser {
  const phone = usPhone(data.phone);
  const address = data.address;
  return {
    name: { given_name: data.first_name, family_name: data.last_name },
    ...(data.date_of_birth && { date_of_birth: data.date_of_birth }),
    ...(data.ssn && { id_number: { type: US_SSN as unknown as IDNumberType, value: data.ssn } }),
    ...(phone && { phone_number: phone }),
    ...(address && {
      address: {
        street: address.address1,
        ...(address.address2 && { street2: address.address2 }),
        city: address.city,
        region: address.state,
        postal_code: address.zip5,
        country: address.country,
      },
    }),
  };
}

/** A phone contact as E.164 when it is a US number (10 digits, or 11 with the country code); else none is sent. */
export function usPhone(value: string | undefined): string | undefined {
  if (!value || /[^\d\s()+.-]/.test(value)) return undefined;
  const digits = value.replace(/\D/g, '');
  if (digits.length === 10 && !value.trim().startsWith('+')) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return undefined;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
