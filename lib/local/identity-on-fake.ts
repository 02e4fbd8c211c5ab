import { ENV } from '#shared/config';
import { resetVendorSecret } from '#shared/identity-vendor/open-vendor';
import { PLAID_ENV } from '#shared/identity-vendor/vendors';
import { FakePlaid } from './fake-plaid';
import type { FakePlaidOptions } from './fake-plaid-options';
import type { RuntimeLog } from './log';

/**
 * `IDENTITY_VENDOR=plaid-fake` (docs/local.md#identity-checks-on-the-plaid-fake): only the
 * local runtime knows this value. It starts the Plaid fake and points the Plaid adapter at
 * it, so handlers see `IDENTITY_VENDOR=plaid` as in a stack with Plaid.
 */
export const PLAID_FAKE = 'plaid-fake';

const SETTINGS = [ENV.identityVendor, ...Object.values(PLAID_ENV)] as const;

export interface IdentityOnFake {
  readonly fake: FakePlaid;
  /** Sends Plaid's notices to the runtime's notice route, once the gateway listens. */
  noticesTo(url: string): void;
  /** Puts the settings back as they were and stops the fake. */
  stop(): Promise<void>;
}

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
  const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
  Object.assign(process.env, {
    [ENV.identityVendor]: 'plaid',
    [PLAID_ENV.baseUrl]: fake.url,
    [PLAID_ENV.clientId]: fake.options.clientId,
    [PLAID_ENV.secret]: fake.options.secret,
    [PLAID_ENV.templateId]: fake.options.templateId,
    [PLAID_ENV.environment]: 'sandbox',
  });
  resetVendorSecret();
  return {
    fake,
    noticesTo: (url) => {
      fake.options.noticeUrl = url;
    },
    stop: async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetVendorSecret();
      await fake.stop();
    },
  };
}
