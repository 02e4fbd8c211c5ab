import { ConfigError, ENV, optionalEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import type { IdentityVendor } from './identity-vendor';
import { SandboxIdentityVendor } from './sandbox-vendor';
import { IDENTITY_VENDORS, type IdentityVendorName } from './vendors';

/**
 * Defined when the CDK bundles a function (`ServiceFunction`'s `identityVendor`): true only
 * for a function of a row with `identityVendor` in a stack with a real vendor. Where it is
 * false the bundle leaves the adapter out (its HTTP client, the JWT check, the Secrets
 * Manager client); unbundled (local runtime, tests) it is undefined and both are there.
 */
declare const IDENTITY_VENDOR_IN_BUNDLE: boolean | undefined;

/**
 * The identity vendor of `IDENTITY_VENDOR` (docs/deploy.md#identity-vendor-plaid): the
 * sandbox vendor (docs/sandbox.md#persons) when unset, or a real vendor, opened on first use.
 */
export const identityVendor = /* @__PURE__ */ port('identityVendor', () => vendorOf(identityVendorName()));

function vendorOf(name: IdentityVendorName): IdentityVendor {
  if (name === 'sandbox') return new SandboxIdentityVendor();
  // Inline, so that esbuild drops the adapter where the constant is false.
  if (typeof IDENTITY_VENDOR_IN_BUNDLE === 'undefined' || IDENTITY_VENDOR_IN_BUNDLE) {
    return new DeferredVendor(name, async () => (await import('./open-vendor')).openVendor(name));
  }
  throw new ConfigError(`${ENV.identityVendor} is ${name}, but this function was bundled for the sandbox vendor`);
}

function identityVendorName(): IdentityVendorName {
  const name = optionalEnv(ENV.identityVendor) ?? 'sandbox';
  if (!(IDENTITY_VENDORS as readonly string[]).includes(name)) {
    throw new ConfigError(`${ENV.identityVendor} must be one of ${IDENTITY_VENDORS.join(', ')}, not "${name}"`);
  }
  return name as IdentityVendorName;
}

/**
 * A real vendor behind the synchronous port: its adapter needs a secret read over the
 * network, so it is opened on the first call (once per container); a failed opening is
 * forgotten, so the next call tries again.
 */
class DeferredVendor implements IdentityVendor {
  private opened: Promise<IdentityVendor> | undefined;

  constructor(
    readonly name: IdentityVendorName,
    private readonly open: () => Promise<IdentityVendor>,
  ) {}

  async verify(...args: Parameters<IdentityVendor['verify']>) {
    return (await this.vendor()).verify(...args);
  }

  async readNotice(body: string, headers: Readonly<Record<string, string | undefined>>) {
    const vendor = await this.vendor();
    if (!vendor.readNotice) throw new ConfigError(`the ${this.name} identity vendor reads no notices`);
    return vendor.readNotice(body, headers);
  }

  private vendor(): Promise<IdentityVendor> {
    this.opened ??= this.open().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }
}

declare module '#shared/dependencies' {
  interface Dependencies {
    identityVendor: IdentityVendor;
  }
}
