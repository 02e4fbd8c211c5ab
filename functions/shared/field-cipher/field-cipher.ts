import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DATA_KEYS, DataKey, type DataKeySource } from '../data-key/data-key';

/** The stored form's version: `fk1:` + base64(IV ‖ ciphertext ‖ tag). A new format gets a new prefix. */
export const SEALED_PREFIX = 'fk1:';

/** Keys whose values are sealed wherever they appear in a stored document (docs/data-model.md#field-encryption). */
export const SEALED_KEYS: ReadonlySet<string> = new Set(['account_number']);

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Whose a sealed value is: its tenant and the record it is stored in (an account's id, an
 * event's id, an idempotency record's key). A sealed value moved to another record or
 * tenant does not open.
 */
export interface FieldOwner {
  readonly tenant: string;
  readonly record: string;
}

/** A stored value under a sealed key that does not open: not sealed, another owner or place, altered, or another key. */
export class UnsealableFieldError extends Error {}

/**
 * The service's field key (docs/data-model.md#field-encryption): AES-256-GCM under a data
 * key KMS generated once (../data-key/), with a random 96-bit IV per value and, as
 * additional data, the format, the owner (tenant and record) and the value's place in its
 * document (`field`, a path such as `event_data.account.account_number`). A table reader
 * without the key learns a value's approximate length, nothing else. Synchronous once the
 * key is loaded: sealing a field costs microseconds and no KMS call.
 */
export class FieldCipher extends DataKey {
  constructor(source: DataKeySource) {
    super(DATA_KEYS['field-key'], source);
  }

  /** `fk1:` + base64 of a fresh IV, the ciphertext of `plaintext` and the tag. */
  seal(plaintext: string, owner: FieldOwner, field: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(), iv);
    cipher.setAAD(additionalData(owner, field));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  }

  /** The plaintext of a value `seal` gave for this owner and field; throws `UnsealableFieldError` otherwise. */
  open(sealed: string, owner: FieldOwner, field: string): string {
    // The message never carries the value: it may be a plain account number.
    if (!sealed.startsWith(SEALED_PREFIX)) throw new UnsealableFieldError(`${field} is not sealed`);
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new UnsealableFieldError(`${field} is not a sealed value`);
    const decipher = createDecipheriv('aes-256-gcm', this.key(), raw.subarray(0, IV_BYTES));
    decipher.setAAD(additionalData(owner, field));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new UnsealableFieldError(`${field} does not open under the field key for its owner`);
    }
  }

  /**
   * `value` with every value under a key of SEALED_KEYS, at any depth, sealed (its JSON, so
   * a number or a list comes back as it was sent). `root` names the document, the start of
   * each sealed value's place. Unchanged parts are returned as they are (the very value when
   * nothing is sealed), and null is left alone: it carries nothing.
   */
  sealWithin<T>(value: T, owner: FieldOwner, root: string): T {
    return mapSealed(value, root, (inner, field) => this.seal(JSON.stringify(inner), owner, field)) as T;
  }

  /** The inverse of `sealWithin`: throws `UnsealableFieldError` for a value under a sealed key that does not open. */
  openWithin<T>(value: T, owner: FieldOwner, root: string): T {
    return mapSealed(value, root, (inner, field) => {
      if (typeof inner !== 'string') throw new UnsealableFieldError(`${field} is not sealed`);
      return JSON.parse(this.open(inner, owner, field));
    }) as T;
  }
}

/** The GCM additional data: unambiguous whatever the owner's strings hold. */
const additionalData = (owner: FieldOwner, field: string): Buffer =>
  Buffer.from(JSON.stringify([SEALED_PREFIX, owner.tenant, owner.record, field]), 'utf8');

/**
 * Applies `map` to every non-null value under a sealed key; depth is bounded by what
 * DynamoDB stores (32 levels), so recursion is safe.
 */
function mapSealed(value: unknown, path: string, map: (inner: unknown, field: string) => unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, inner]) => {
    const field = `${path}.${key}`;
    const next =
      SEALED_KEYS.has(key) && inner !== null && inner !== undefined ? map(inner, field) : mapSealed(inner, field, map);
    if (next !== inner) changed = true;
    return [key, next] as const;
  });
  if (!changed) return value;
  return Array.isArray(value) ? entries.map(([, inner]) => inner) : Object.fromEntries(entries);
}

/** Whether `value` holds, at any depth, a non-null value under a sealed key. */
export function holdsSealedValue(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(
    ([key, inner]) => (SEALED_KEYS.has(key) && inner !== null && inner !== undefined) || holdsSealedValue(inner),
  );
}
