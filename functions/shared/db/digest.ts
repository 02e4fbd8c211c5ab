import { type DigestKind, digest } from '#shared/digest/index';

/**
 * A value that must not appear in a key (an `Idempotency-Key`, an account number, a
 * customer reference), as a key part: its keyed digest (`#shared/digest`), cut to 128 bits.
 */
export const keyDigest = (kind: DigestKind, value: string): string => digest(kind, value).slice(0, 32);
