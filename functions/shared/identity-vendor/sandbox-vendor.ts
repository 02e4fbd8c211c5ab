import type { IdentityData } from '#domain/person';
import type { IdentityVendor, VendorVerdict } from './identity-vendor';

/**
 * The sandbox identity vendor (docs/sandbox.md#persons), by the SSN's serial (its last
 * four digits): `0001` is reported deceased, `0002` does not belong to the name and date
 * of birth given (`invalid_ssn`); any other SSN, or none, passes. It answers at once.
 */
export class SandboxIdentityVendor implements IdentityVendor {
  readonly name = 'sandbox';

  async verify(data: IdentityData): Promise<VendorVerdict> {
    const serial = data.ssn?.slice(-4);
    if (serial === '0001') return { reasons: ['deceased_person'] };
    if (serial === '0002') return { reasons: ['invalid_ssn'] };
    return { reasons: [] };
  }
}
