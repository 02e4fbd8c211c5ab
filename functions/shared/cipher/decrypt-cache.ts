import type { Cipher, CipherContext } from './cipher';

/**
 * Plaintexts of ciphertexts already decrypted in this container, for values read on a hot
 * path whose ciphertext changes whenever the value does (webhook signing secrets: a
 * rotation stores a new ciphertext, so a cached plaintext is never stale). Keyed by the
 * ciphertext and the whole cipher context, since the context is what binds a ciphertext to
 * its owner: the same ciphertext under another context must still go to the cipher (and
 * fail there). Bounded, least recently used out first, so a container serving many
 * tenants holds a few entries each, not every secret it has seen. Not for PII (SSNs, tax
 * ids): those are decrypted rarely and should not linger in memory.
 */
export class DecryptCache {
  private readonly plaintexts = new Map<string, string>();

  constructor(private readonly maxEntries = 100) {}

  async decrypt(cipher: Cipher, ciphertext: string, context: CipherContext): Promise<string> {
    const key = cacheKey(ciphertext, context);
    const cached = this.plaintexts.get(key);
    if (cached !== undefined) {
      // Map keeps insertion order: moving a hit to the end makes the first key the least recently used.
      this.plaintexts.delete(key);
      this.plaintexts.set(key, cached);
      return cached;
    }
    const plaintext = await cipher.decrypt(ciphertext, context);
    this.plaintexts.set(key, plaintext);
    if (this.plaintexts.size > this.maxEntries) this.plaintexts.delete(this.plaintexts.keys().next().value as string);
    return plaintext;
  }

  get size(): number {
    return this.plaintexts.size;
  }
}

const cacheKey = (ciphertext: string, context: Record<string, string>): string =>
  JSON.stringify([ciphertext, Object.entries(context).sort(([a], [b]) => a.localeCompare(b))]);
