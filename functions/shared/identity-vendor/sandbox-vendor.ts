import type { IdentityData, ReasonCode } from '#domain/person';
import type { IdentityVendor } from './identity-vendor';

/**
 * The sandbox identity vendor (docs/sandbox.md#persons), by the SSN's serial (its last
 * four digits): `0001` is reported deceased, `0002` does not belong to the name and date
 * of birth given (`invalid_ssn`); any other SSN, or none, passes.
 */
export class SandboxIdentityVendor implements IdentityVendor {
  async verify(data: IdentityData): Promise<ReasonCode[]> {
    const serial = data.ssn?.slice(-4);
    if (serial === '0001') return ['deceased_person'];
    if (serial === '0002') return ['invalid_ssn'];
    return [];
  }
}
