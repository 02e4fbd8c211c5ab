import { ENV } from '#shared/config';
import { resetVendorSecret } from '#shared/identity-vendor/open-vendor';
import { PLAID_ENV } from '#shared/identity-vendor/vendors';
import { FakePlaid } from './fake-plaid';
import type { FakePlaidOptions } from './fake-plaid-options';
import type { RuntimeLog } from './log';
import { type ProviderOnFake, providerOnFake } from './provider-on-fake';

/**
 * `IDENTITY_VENDOR=plaid-fake` (docs/local.md#identity-checks-on-the-plaid-fake): only the
 * local runtime knows this value. It starts the Plaid fake and points the Plaid adapter at
 * it, so handlers see `IDENTITY_VENDOR=plaid` as in a stack with Plaid.
 */
export const PLAID_FAKE = 'plaid-fake';

export type IdentityOnFake = ProviderOnFake<FakePlaid>;

/**
 * Starts the fake on 127.0.0.1 and sets what the adapter is opened from
 * (functions/shared/identity-vendor/open-vendor.ts): the fake's URL, credentials and
 * template. Call it before any handler runs: the vendor is opened on first use.
 */
export async function startIdentityOnFake(
  options: Partial<FakePlaidOptions>,
  log: RuntimeLog,
): Promise<IdentityOnFake> {
  const fake = await FakePlaid.start({ log: (message) => log('info', message), ...options });
  return providerOnFake(
    fake,
    {
      [ENV.identityVendor]: 'plaid',
      [PLAID_ENV.baseUrl]: fake.url,
      [PLAID_ENV.clientId]: fake.options.clientId,
      [PLAID_ENV.secret]: fake.options.secret,
      [PLAID_ENV.templateId]: fake.options.templateId,
      [PLAID_ENV.environment]: 'sandbox',
    },
    resetVendorSecret,
  );
}
