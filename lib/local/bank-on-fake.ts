import { resetBankSecrets } from '#shared/bank/secrets';
import { ENV } from '#shared/config';
import { FakeIncrease } from './fake-increase';
import type { FakeIncreaseOptions } from './fake-increase-options';
import type { RuntimeLog } from './log';

/**
 * `BANK_PROVIDER=increase-fake` (docs/local.md#real-rails-on-the-increase-fake): only the local
 * runtime knows this value. It starts the Increase fake as the receiving banks and points
 * the Increase adapter at it, so handlers see `BANK_PROVIDER=increase` as in a stack on rails.
 */
export const INCREASE_FAKE = 'increase-fake';

/** The Increase account the fake's entries are sent from (Increase's ids look so). */
export const FAKE_INCREASE_ACCOUNT_ID = 'account_local_fake';

const SETTINGS = [
  ENV.bankProvider,
  ENV.increaseBaseUrl,
  ENV.increaseApiKey,
  ENV.increaseWebhookSecret,
  ENV.increaseAccountId,
  ENV.increaseEnvironment,
] as const;

export interface BankOnFake {
  readonly fake: FakeIncrease;
  /** Sends Increase's webhook to the runtime's notice route, once the gateway listens. */
  noticesTo(url: string): void;
  /** Puts the settings back as they were and stops the fake. */
  stop(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1 and sets what the adapter is opened from
 * (functions/shared/bank/open-rails.ts, secrets.ts): the fake's URL, key and webhook secret.
 * Call it before any handler runs: the bank is opened on first use.
 */
export async function startBankOnFake(options: Partial<FakeIncreaseOptions>, log: RuntimeLog): Promise<BankOnFake> {
  const fake = await FakeIncrease.start({ receivingBank: true, log: (message) => log('info', message), ...options });
  const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
  Object.assign(process.env, {
    [ENV.bankProvider]: 'increase',
    [ENV.increaseBaseUrl]: fake.url,
    [ENV.increaseApiKey]: fake.options.apiKey,
    [ENV.increaseWebhookSecret]: fake.options.webhookSecret,
    [ENV.increaseAccountId]: FAKE_INCREASE_ACCOUNT_ID,
    [ENV.increaseEnvironment]: 'sandbox',
  });
  resetBankSecrets();
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
      resetBankSecrets();
      await fake.stop();
    },
  };
}
