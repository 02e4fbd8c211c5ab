import type { IdentityData, ReasonCode } from '#domain/person';

/**
 * The third-party identity vendor of Service-KYC: given a person's identity data, which
 * checks it fails (deceased, data that does not belong together). BYO-KYC tenants skip it.
 */
export interface IdentityVendor {
  verify(data: IdentityData): Promise<ReasonCode[]>;
}
