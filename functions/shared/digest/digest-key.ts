import { createHmac } from 'node:crypto';
import { DATA_KEYS, DataKey, type DataKeySource } from '../data-key/data-key';

/**
 * What a digest is of. Each kind is its own label in the MAC's input, so one value digested
 * as two kinds (an account number also sent as an `Idempotency-Key`) gives two unrelated
 * digests: a table reader cannot even tell that they are equal.
 */
export type DigestKind =
  | 'idempotency-key'
  | 'request'
  | 'created-id'
  | 'account-number'
  | 'verification-slot'
  | 'customer-reference'
  | 'statement-code';

/**
 * The service's one digest key (docs/data-model.md#digests): every digest of a secret or of
 * PII the service stores (in a key or an item) is an HMAC-SHA-256 under it, so someone who
 * can read the table, its stream or a backup, but not the key, cannot confirm a guess (an
 * SSN has 10^9 candidates, a statement code 36^4). A data key (../data-key/): there at once
 * when given as bytes, or after `ready()`; `digest` stays synchronous so key builders do too.
 */
export class DigestKey extends DataKey {
  constructor(source: DataKeySource) {
    super(DATA_KEYS['digest-key'], source);
  }

  /** HMAC-SHA-256 of `kind` and `value` under the key, in hex (64 characters). */
  digest(kind: DigestKind, value: string): string {
    return createHmac('sha256', this.key()).update(`${kind}\n${value}`, 'utf8').digest('hex');
  }
}
