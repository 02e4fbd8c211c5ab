import { createHash, createHmac } from 'node:crypto';
import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENV } from '#shared/config';
import { resetDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';
import { digest, prepareDigestKey } from '#shared/digest/index';
import { invocation } from '#shared/invocation';

const KEY_A = Buffer.alloc(32, 1);
const KEY_B = Buffer.alloc(32, 2);
const SSN = '587239146';

describe('keyed digest', () => {
  it('is stable under one key, and another key gives another digest', () => {
    const a = new DigestKey(KEY_A);
    expect(a.digest('account-number', SSN)).toBe(new DigestKey(Buffer.from(KEY_A)).digest('account-number', SSN));
    expect(a.digest('account-number', SSN)).not.toBe(new DigestKey(KEY_B).digest('account-number', SSN));
  });

  it('is an HMAC-SHA-256 of the kind and the value, never the unkeyed SHA-256 a table reader could recompute', () => {
    const value = new DigestKey(KEY_A).digest('request', SSN);
    expect(value).toBe(createHmac('sha256', KEY_A).update(`request\n${SSN}`).digest('hex'));
    expect(value).not.toContain(createHash('sha256').update(SSN).digest('hex').slice(0, 32));
  });

  it('gives one value digested as two kinds two unrelated digests', () => {
    const key = new DigestKey(KEY_A);
    expect(key.digest('idempotency-key', SSN)).not.toBe(key.digest('account-number', SSN));
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new DigestKey(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe('digest key in AWS mode (ciphertext in the environment)', () => {
  const kms = mockClient(KMSClient);
  const ARN = 'arn:aws:kms:eu-west-1:123456789012:key/cipher';

  beforeEach(() => {
    kms.reset();
    resetDependencies();
    delete process.env[ENV.localDigestKey];
    process.env[ENV.digestKeyCiphertext] = Buffer.from('the ciphertext').toString('base64');
    process.env[ENV.cipherKeyArn] = ARN;
  });
  afterEach(() => {
    delete process.env[ENV.digestKeyCiphertext];
    delete process.env[ENV.cipherKeyArn];
    resetDependencies();
  });

  it('decrypts the key once per container, under the digest-key purpose, before the first invocation’s work', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: KEY_A });
    const handler = invocation(async (value: string) => digest('customer-reference', value));

    const first = await handler('ref-1');
    const second = await handler('ref-1');

    expect(first).toBe(new DigestKey(KEY_A).digest('customer-reference', 'ref-1'));
    expect(second).toBe(first);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
    expect(kms.commandCalls(DecryptCommand)[0]?.args[0].input).toEqual({
      KeyId: ARN,
      CiphertextBlob: Buffer.from('the ciphertext'),
      EncryptionContext: { purpose: 'digest-key' },
    });
  });

  it('cannot digest before the key is loaded', () => {
    expect(() => digest('request', 'x')).toThrow(/not loaded/);
  });

  it('tries KMS again on the next invocation after a failed load', async () => {
    kms.on(DecryptCommand).rejectsOnce(new Error('throttled')).resolves({ Plaintext: KEY_A });

    await expect(prepareDigestKey()).rejects.toThrow('throttled');
    await prepareDigestKey();

    expect(digest('request', 'x')).toBe(new DigestKey(KEY_A).digest('request', 'x'));
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(2);
  });

  it('loads nothing for a function without a digest key', async () => {
    delete process.env[ENV.digestKeyCiphertext];
    await invocation(async () => undefined)(undefined);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});
