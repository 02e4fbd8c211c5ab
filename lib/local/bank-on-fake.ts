import { resetBankSecrets } from '#shared/bank/secrets';
import { ENV } from '#shared/config';
import { FakeIncrease } from './fake-increase';
import type { FakeIncreaseOptions } from './fake-increase-options';
import type { RuntimeLog } from './log';
import { type ProviderOnFake, providerOnFake } from './provider-on-fake';

/**
 * `BANK_PROVIDER=increase-fake` (docs/local.md#real-rails-on-the-increase-fake): only the local
 * runtime knows this value. It starts the Increase fake as the receiving banks and points
 * the Increase adapter at it, so handlers see `BANK_PROVIDER=increase` as in a stack on rails.
 */
export const INCREASE_FAKE = 'increase-fake';

/** The Increase account the fake's entries are sent from (Increase's ids look so). */
export const FAKE_INCREASE_ACCOUNT_ID = 'account_local_fake';

export type BankOnFake = ProviderOnFake<FakeIncrease>;

/**
 * Starts the fake on 127.0.0.1 and sets what the adapter is opened from
 * (functions/shared/bank/open-rails.ts, secrets.ts): the fake's URL, key and webhook secret.
 * Call it before any handler runs: the bank is opened on first use.
 */
export async function startBankOnFake(options: Partial<FakeIncreaseOptions>, log: RuntimeLog): Promise<BankOnFake> {
  const fake = await FakeIncrease.start({ receivingBank: true, log: (message) => log('info', message), ...options });
  return providerOnFake(
    fake,
    {
      [ENV.bankProvider]: 'increase',
      [ENV.increaseBaseUrl]: fake.url,
      [ENV.increaseApiKey]: fake.options.apiKey,
      [ENV.increaseWebhookSecret]: fake.options.webhookSecret,
      [ENV.increaseAccountId]: FAKE_INCREASE_ACCOUNT_ID,
      [ENV.increaseEnvironment]: 'sandbox',
    },
    resetBankSecrets,
  );
}
