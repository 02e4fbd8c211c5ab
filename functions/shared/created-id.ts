import { randomUUID } from 'node:crypto';

// The id a create gives what it makes. Without an `Idempotency-Key`, a random UUID. With
// one, the same UUID on every retry with that key (`HandlerRequest.idempotency.id`, a
// keyed digest of tenant, route and key, so no one without the digest key can tell the key
// from the id): a write whose answer was lost on the way back (a timeout after DynamoDB
// applied it) answers 5xx and frees the key, and the retry then finds the item the first
// attempt made under its id instead of making a second one.

/** A random UUID, or the UUID (version 4 layout) of a request's stable identity. */
export function createdId(identity?: { readonly id: string }): string {
  if (!identity) return randomUUID();
  const bytes = Buffer.from(identity.id.slice(0, 32), 'hex');
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id made from an `Idempotency-Key` belongs to an item older than the key's 24 h: the
 * key is being used again, for a new request, which is made under a random id.
 */
export class CreatedIdTaken extends Error {}

/**
 * Runs a create under the id of `request` (a random one without a key) and, when that id
 * belongs to an item older than the key (`CreatedIdTaken`), once more under a random id.
 * `create` is given the id and the request's fingerprint, to store beside what it makes.
 */
export async function createUnder<T>(
  request: { readonly id: string; readonly fingerprint: string } | undefined,
  create: (id: string, fingerprint?: string) => Promise<T>,
): Promise<T> {
  try {
    return await create(createdId(request), request?.fingerprint);
  } catch (error) {
    if (!(error instanceof CreatedIdTaken)) throw error;
    return create(createdId());
  }
}
