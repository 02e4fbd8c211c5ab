import { describe, expect, it } from 'vitest';
import type { Cipher } from '#shared/cipher/cipher';
import { DecryptCache } from '#shared/cipher/decrypt-cache';

/** Decrypts `pt:<x>` to `<x>` under any context, counting the calls. */
class CountingCipher implements Cipher {
  calls: { ciphertext: string; context: Record<string, string> }[] = [];
  async encrypt(plaintext: string): Promise<string> {
    return `pt:${plaintext}`;
  }
  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    this.calls.push({ ciphertext, context });
    return ciphertext.slice(3);
  }
}

const context = { tenant: 't1', purpose: 'webhook_signing_secret' as const };

describe('decrypt cache', () => {
  it('asks the cipher once per ciphertext and context, however often the plaintext is read', async () => {
    const cipher = new CountingCipher();
    const cache = new DecryptCache();

    expect(await cache.decrypt(cipher, 'pt:a', context)).toBe('a');
    expect(await cache.decrypt(cipher, 'pt:a', { purpose: context.purpose, tenant: context.tenant })).toBe('a');

    expect(cipher.calls).toHaveLength(1);
  });

  it('sends the same ciphertext under another context to the cipher again: the context binds it to its owner', async () => {
    const cipher = new CountingCipher();
    const cache = new DecryptCache();

    await cache.decrypt(cipher, 'pt:a', context);
    await cache.decrypt(cipher, 'pt:a', { ...context, tenant: 't2' });

    expect(cipher.calls.map((call) => call.context.tenant)).toEqual(['t1', 't2']);
  });

  it('does not remember a failed decryption', async () => {
    const cipher = new CountingCipher();
    let failures = 1;
    cipher.decrypt = async (ciphertext) => {
      if (failures-- > 0) throw new Error('KMS throttled');
      return ciphertext.slice(3);
    };
    const cache = new DecryptCache();

    await expect(cache.decrypt(cipher, 'pt:a', context)).rejects.toThrow('KMS throttled');
    expect(await cache.decrypt(cipher, 'pt:a', context)).toBe('a');
  });

  it('holds at most its bound, dropping the least recently used', async () => {
    const cipher = new CountingCipher();
    const cache = new DecryptCache(2);

    await cache.decrypt(cipher, 'pt:a', context);
    await cache.decrypt(cipher, 'pt:b', context);
    await cache.decrypt(cipher, 'pt:a', context);
    await cache.decrypt(cipher, 'pt:c', context);
    expect(cache.size).toBe(2);
    await cache.decrypt(cipher, 'pt:a', context);
    await cache.decrypt(cipher, 'pt:b', context);

    expect(cipher.calls.map((call) => call.ciphertext)).toEqual(['pt:a', 'pt:b', 'pt:c', 'pt:b']);
  });
});
