import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import type { VettedUrl } from '#domain/webhook-url';
import { handler as deliveryWorker } from '#functions/webhooks/handlers/delivery-worker';
import type { Cipher, CipherContext } from '#shared/cipher/cipher';
import { LocalCipher } from '#shared/cipher/local-cipher';
import { ENTITY } from '#shared/db/entities';
import type { DeliveryAttempt, StoredEventRepository } from '#shared/db/stored-events/index';
import type { WebhookConfigurationRepository } from '#shared/db/webhook-configurations/index';
import type { SecretItem } from '#shared/db/webhook-secrets/item';
import { webhookSecretKeys } from '#shared/db/webhook-secrets/keys';
import { setDependencies } from '#shared/dependencies';
import type { TransportResult, WebhookTransport } from '#shared/webhook-transport/webhook-transport';
import { approvingUrlPolicy, FakeQueue } from '#test/support/fakes';
import { ddb, FRIDAY, functionUnderTest, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { sqsBatch, sqsRecord } from '#test/support/records';

/**
 * The delivery worker signs with the tenant's secrets as the real repository reads them
 * (GetItem mocked, the AES-GCM local cipher), and decrypts each secret once per container:
 * KMS is billed per request, and a warm worker delivers many events of one tenant.
 */
useHandlerHarness();
const worker = functionUnderTest('WebhookDeliveryWorker', deliveryWorker);

const EVENT_ID = '4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
const CONFIGURATION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const envelope = {
  event_id: EVENT_ID,
  event_type: 'person_verified',
  created_at: FRIDAY.toISOString(),
  event_data: {},
};
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

class CountingCipher implements Cipher {
  private readonly inner = new LocalCipher(randomBytes(32).toString('base64'));
  decrypts = 0;
  encrypt(plaintext: string, context: CipherContext) {
    return this.inner.encrypt(plaintext, context);
  }
  decrypt(ciphertext: string, context: CipherContext) {
    this.decrypts++;
    return this.inner.decrypt(ciphertext, context);
  }
}

class CapturingTransport implements WebhookTransport {
  readonly posts: { headers: Record<string, string>; body: string }[] = [];
  async post(_target: VettedUrl, headers: Record<string, string>, body: string): Promise<TransportResult> {
    this.posts.push({ headers, body });
    return { status: 200, latencyMs: 12 };
  }
}

let cipher: CountingCipher;
let transport: CapturingTransport;
beforeEach(() => {
  cipher = new CountingCipher();
  transport = new CapturingTransport();
  const configuration: Partial<WebhookConfiguration> = {
    id: CONFIGURATION_ID,
    tenant: TENANT,
    url: 'https://partner.example/hooks',
    event_types: ['person_verified'],
    enabled: true,
  };
  setDependencies({
    cipher,
    storedEvents: {
      withAttempts: async () => ({ stored: { tenant: TENANT, envelope }, attempts: [] }),
      recordAttempt: async (_t: string, _e: string, _a: DeliveryAttempt) => true,
      claimAttempt: async () => true,
    } as unknown as StoredEventRepository,
    webhookConfigurations: { configurations: async () => [configuration] } as unknown as WebhookConfigurationRepository,
    webhookTransport: transport,
    webhookUrlPolicy: approvingUrlPolicy,
    queue: new FakeQueue(),
  });
});

const context = { tenant: TENANT, purpose: 'webhook_signing_secret' as const };

/** Stores the tenant's secret item: `current`, and the `previous` ciphertext still signing for a day. */
function givenStored(current: string, previous?: string): void {
  const item: SecretItem & Record<string, unknown> = {
    ...webhookSecretKeys.secret(TENANT),
    entity: ENTITY.webhookSecret,
    tenant: TENANT,
    current_secret: current,
    created_at: FRIDAY.toISOString(),
    previous_secret: previous,
    previous_expires_at: previous && new Date(FRIDAY.getTime() + 86_400_000).toISOString(),
    version: previous ? 2 : 1,
  };
  ddb.on(GetCommand, { Key: webhookSecretKeys.secret(TENANT) }).resolves({ Item: item });
}

const delivery = (messageId: string) =>
  sqsBatch(
    sqsRecord(messageId, { tenant: TENANT, event_id: EVENT_ID, configuration_id: CONFIGURATION_ID, attempt: 1 }),
  );

/** Whether `secret` produced one of the request's signatures (standardwebhooks' own signer). */
const signedBy = (secret: string, post: { headers: Record<string, string>; body: string }) => {
  const timestamp = new Date(Number(post.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(post.headers['webhook-id'], timestamp, post.body);
  return post.headers['webhook-signature'].split(' ').includes(expected);
};

describe('webhook signing secrets in the delivery worker', () => {
  it('decrypts a tenant’s secret once for two deliveries, and both are signed with it', async () => {
    const secret = newSecret();
    givenStored(await cipher.encrypt(secret, context));

    await worker(delivery('m-1'));
    await worker(delivery('m-2'));

    expect(cipher.decrypts).toBe(1);
    expect(transport.posts).toHaveLength(2);
    expect(transport.posts.every((post) => signedBy(secret, post))).toBe(true);
  });

  it('signs with the new secret as soon as it is rotated, the old one still beside it', async () => {
    const before = newSecret();
    const beforeCiphertext = await cipher.encrypt(before, context);
    givenStored(beforeCiphertext);
    await worker(delivery('m-1'));

    // A rotation stores the new secret's ciphertext and keeps the old one as it is.
    const after = newSecret();
    givenStored(await cipher.encrypt(after, context), beforeCiphertext);
    await worker(delivery('m-2'));

    const rotated = transport.posts[1];
    expect(signedBy(after, rotated)).toBe(true);
    expect(signedBy(before, rotated)).toBe(true);
    // Only the new ciphertext went to the cipher; the previous one was already decrypted.
    expect(cipher.decrypts).toBe(2);
  });
});
