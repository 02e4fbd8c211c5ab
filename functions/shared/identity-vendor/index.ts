import { port } from '#shared/dependencies';
import type { IdentityVendor } from './identity-vendor';
import { SandboxIdentityVendor } from './sandbox-vendor';

/** The sandbox vendor is the only identity vendor today (docs/sandbox.md#persons). */
export const identityVendor = /* @__PURE__ */ port('identityVendor', () => new SandboxIdentityVendor());

declare module '#shared/dependencies' {
  interface Dependencies {
    identityVendor: IdentityVendor;
  }
}
