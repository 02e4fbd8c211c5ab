import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, ENV } from '#shared/config';
import { DATA_KEYS, dataKeySource } from '#shared/data-key/index';
import { resetDependencies } from '#shared/dependencies';
import { FieldCipher, UnsealableFieldError } from '#shared/field-cipher/field-cipher';
import { openFields, sealFields } from '#shared/field-cipher/index';
import { invocation } from '#shared/invocation';

const KEY_A = Buffer.alloc(32, 1);
const KEY_B = Buffer.alloc(32, 2);
const NUMBER = '73120455012';
const OWNER = { tenant: 'tenant-a', record: 'account-1' };
const FIELD = 'verify_account.account_number';

describe('sealing one value', () => {
  const cipher = new FieldCipher(KEY_A);

  it('opens what it sealed, for the same owner and field', () => {
    expect(cipher.open(cipher.seal(NUMBER, OWNER, FIELD), OWNER, FIELD)).toBe(NUMBER);
  });

  it('stores a versioned string that holds nothing of the number, and a fresh IV each time', () => {
    const once = cipher.seal(NUMBER, OWNER, FIELD);
    const twice = cipher.seal(NUMBER, OWNER, FIELD);
    expect(once).toMatch(/^fk1:[A-Za-z0-9+/]+=*$/);
    expect(once).not.toContain(NUMBER);
    expect(once).not.toBe(twice);
  });

  it.each([
    ['another record of the tenant', { tenant: 'tenant-a', record: 'account-2' }, FIELD],
    ['the same record id of another tenant', { tenant: 'tenant-b', record: 'account-1' }, FIELD],
    ['another place in the document', OWNER, 'verify_account.previous.account_number'],
  ])('refuses a sealed value moved to %s', (_, owner, field) => {
    const sealed = cipher.seal(NUMBER, OWNER, FIELD);
    expect(() => cipher.open(sealed, owner, field)).toThrow(UnsealableFieldError);
  });

  it('refuses a sealed value altered by one bit, without naming the value', () => {
    const sealed = cipher.seal(NUMBER, OWNER, FIELD);
    const raw = Buffer.from(sealed.slice(4), 'base64');
    raw[14] = (raw[14] as number) ^ 1;
    const tampered = `fk1:${raw.toString('base64')}`;
    expect(() => cipher.open(tampered, OWNER, FIELD)).toThrow(UnsealableFieldError);
    expect(() => cipher.open(tampered, OWNER, FIELD)).not.toThrow(NUMBER);
  });

  it('refuses a value sealed under another key', () => {
    const sealed = new FieldCipher(KEY_B).seal(NUMBER, OWNER, FIELD);
    expect(() => cipher.open(sealed, OWNER, FIELD)).toThrow(UnsealableFieldError);
  });

  it('refuses a plain value where a sealed one belongs, without naming it', () => {
    expect(() => cipher.open(NUMBER, OWNER, FIELD)).toThrow(`${FIELD} is not sealed`);
    expect(() => cipher.open('fk1:AAAA', OWNER, FIELD)).toThrow(UnsealableFieldError);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new FieldCipher(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe('sealing within a document', () => {
  const cipher = new FieldCipher(KEY_A);
  const document = {
    account: { id: 'a-1', account_number: NUMBER, routing_number: '021000021' },
    previous: [{ account_number: 12345678 }, { account_number: ['7312', '0455'] }, { account_number: null }],
    note: 'account_number',
  };

  it('seals every value under an account_number key at any depth, leaves the rest and null as they are, and opens it all as it was', () => {
    const sealed = cipher.sealWithin(document, OWNER, 'event_data');

    expect(JSON.stringify(sealed)).not.toMatch(/73120455012|12345678|"7312"/);
    expect(sealed.account.account_number).toMatch(/^fk1:/);
    expect(sealed.account.routing_number).toBe('021000021');
    expect(sealed.previous[2]).toEqual({ account_number: null });
    expect(sealed.note).toBe('account_number');
    expect(cipher.openWithin(sealed, OWNER, 'event_data')).toEqual(document);
  });

  it('binds each value to its place: two values swapped within one document do not open', () => {
    const sealed = cipher.sealWithin(document, OWNER, 'event_data');
    const swapped = {
      ...sealed,
      account: { ...sealed.account, account_number: sealed.previous[0]?.account_number },
    };
    expect(() => cipher.openWithin(swapped, OWNER, 'event_data')).toThrow(UnsealableFieldError);
  });

  it('returns a document without account numbers as the very same value', () => {
    const plain = { person: { first_name: 'Jane' } };
    expect(cipher.sealWithin(plain, OWNER, 'event_data')).toBe(plain);
  });
});

describe('the field key in a function', () => {
  const kms = mockClient(KMSClient);
  const ARN = 'arn:aws:kms:eu-west-1:123456789012:key/cipher';

  beforeEach(() => {
    kms.reset();
    resetDependencies();
    delete process.env[ENV.localFieldKey];
  });
  afterEach(() => {
    delete process.env[ENV.fieldKeyCiphertext];
    delete process.env[ENV.cipherKeyArn];
    resetDependencies();
  });

  it('is decrypted once per container, under the field-key purpose, before the first invocation’s work', async () => {
    process.env[ENV.fieldKeyCiphertext] = Buffer.from('the ciphertext').toString('base64');
    process.env[ENV.cipherKeyArn] = ARN;
    kms.on(DecryptCommand).resolves({ Plaintext: KEY_A });
    const handler = invocation(async (value: string) => sealFields({ account_number: value }, OWNER, 'doc'));

    const first = await handler(NUMBER);
    await handler(NUMBER);

    expect(new FieldCipher(KEY_A).openWithin(first, OWNER, 'doc')).toEqual({ account_number: NUMBER });
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
    expect(kms.commandCalls(DecryptCommand)[0]?.args[0].input).toEqual({
      KeyId: ARN,
      CiphertextBlob: Buffer.from('the ciphertext'),
      EncryptionContext: { purpose: 'field-key' },
    });
  });

  it('is not needed to store or read a document that carries no account number', async () => {
    const handler = invocation(async () => openFields(sealFields({ person: 'Jane' }, OWNER, 'doc'), OWNER, 'doc'));
    expect(await handler(undefined)).toEqual({ person: 'Jane' });
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });

  it('cannot seal before the key is loaded', () => {
    process.env[ENV.fieldKeyCiphertext] = Buffer.from('the ciphertext').toString('base64');
    process.env[ENV.cipherKeyArn] = ARN;
    expect(() => sealFields({ account_number: NUMBER }, OWNER, 'doc')).toThrow(/field key is not loaded/);
  });

  it('is refused, never fetched, by a function whose bundle holds no field key', () => {
    // The port passes no KMS loader where FIELD_KEY_IN_BUNDLE is false (its row has no field key).
    expect(() => dataKeySource(DATA_KEYS['field-key'], undefined)).toThrow(
      new ConfigError('this function has no field key: its row in lib/service/ does not need one'),
    );
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});
