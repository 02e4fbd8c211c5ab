import { createHmac, randomBytes } from 'node:crypto';

// Webhook signatures as the Standard Webhooks specification defines them (docs/api.md#delivery),
// so partners verify with the `standardwebhooks` package instead of code of their own:
// `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the secret's bytes.

/** Standard Webhooks marks a symmetric secret with this prefix; the key is the base64 after it. */
export const SECRET_PREFIX = 'whsec_';

/** 24 bytes (192 bits) sits inside the specification's 24–64 byte range for symmetric keys. */
const SECRET_BYTES = 24;

/** A new signing secret: `whsec_` and the base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key: the bytes the base64 after `whsec_` stands for (the prefix is optional, as in the package). */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  // An empty key would still produce a signature, one anybody can forge.
  if (key.length === 0) throw new Error('A webhook secret must hold a non-empty base64 key');
  return key;
}

/** `v1,<signature>` for one secret; the body is signed exactly as sent (UTF-8), never re-serialised. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  assertWholeSeconds(timestampSeconds);
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/**
 * The headers of one delivery. Every secret signs: during a rotation the new and the previous
 * secret both do, so a receiver still holding the old one keeps verifying until it switches.
 */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  // Sending unsigned would teach receivers to accept unsigned requests.
  if (secrets.length === 0) throw new Error('A webhook needs at least one signing secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, id, timestampSeconds, body)).join(' '),
    'content-type': 'application/json',
  };
}

/** Receivers parse the header as an integer, so a fractional timestamp would sign a value they never check. */
function assertWholeSeconds(timestampSeconds: number): void {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('A webhook timestamp is a whole number of seconds since the epoch');
  }
}
