import type { EmailMessage } from '#domain/notifications';
import { dataKeysOf } from '#lib/service/index';
import type { CipherContext } from '#shared/cipher/cipher';
import { DataKey } from '#shared/data-key/index';
import type { Dependencies } from '#shared/dependencies';
import type { QueueId, QueueMessage } from '#shared/queue/message-queue';
import { currentFunction, type FunctionUnderTest, usedGrants } from './table-access-recorder';

// The drift test beyond the table (issue 22): which queue a function sends to, which purpose
// it encrypts or decrypts under the cipher key, and whether it sends email, noted from the
// ports themselves and checked against what its row declares (`sendsTo`, `cipher`,
// `sendsEmail`), from which the CDK stack grants sqs:SendMessage, kms:Encrypt/Decrypt under
// a purpose condition, and ses:SendEmail; and which data key it uses (`digestKey`,
// `fieldKey`, a route's with the HTTP stack's need: `dataKeysOf`), whose ciphertext and
// kms:Decrypt grant a function has only when its row holds the key.

type Ports = Pick<Dependencies, 'queue' | 'cipher' | 'notifier'>;

const noted: { fn: FunctionUnderTest; use: string }[] = [];

function note(use: string): void {
  const fn = currentFunction();
  if (fn) noted.push({ fn, use });
}

/** What a row lets its function do through the ports, as `note` names each use. */
export function grantedPortUses(fn: FunctionUnderTest): string[] {
  const { row } = fn;
  return [
    ...(row.sendsTo ?? []).map((queue) => `sends to queue ${queue}`),
    ...(row.cipher?.encrypt ?? []).map((purpose) => `encrypts ${purpose}`),
    ...(row.cipher?.decrypt ?? []).map((purpose) => `decrypts ${purpose}`),
    ...('sendsEmail' in row && row.sendsEmail ? ['sends email'] : []),
    ...dataKeysOf(row).map((purpose) => `uses the ${purpose}`),
  ].map((use) => `${fn.id}: ${use}`);
}

/**
 * Notes each use of these ports with the function it runs in (`runAsRow`) before the port
 * acts. The ports are changed in place, so whoever holds them (the runtime, its tests) still
 * holds the same objects.
 */
export function observePorts({ queue, cipher, notifier }: Ports): void {
  const send = queue.send.bind(queue);
  queue.send = (id: QueueId, messages: QueueMessage[]) => {
    note(`sends to queue ${id}`);
    return send(id, messages);
  };
  const encrypt = cipher.encrypt.bind(cipher);
  cipher.encrypt = (plaintext: string, context: CipherContext) => {
    note(`encrypts ${context.purpose}`);
    return encrypt(plaintext, context);
  };
  const decrypt = cipher.decrypt.bind(cipher);
  cipher.decrypt = (ciphertext: string, context: CipherContext) => {
    note(`decrypts ${context.purpose}`);
    return decrypt(ciphertext, context);
  };
  const email = notifier.send.bind(notifier);
  notifier.send = (message: EmailMessage) => {
    note('sends email');
    return email(message);
  };
}

/**
 * Throws if a port use noted since the last call is one its function's row does not declare;
 * notes the declared ones for the reverse check.
 */
export function checkPortUses(): void {
  const problems = new Set<string>();
  for (const { fn, use } of noted.splice(0, noted.length)) {
    const key = `${fn.id}: ${use}`;
    if (grantedPortUses(fn).includes(key)) usedGrants.add(key);
    else problems.add(`${fn.id} ${use}: its row in lib/service does not declare it`);
  }
  if (problems.size > 0)
    throw new Error(
      `Queue, cipher, data-key or email uses beyond the row (IAM would deny them):\n${[...problems].join('\n')}`,
    );
}

let dataKeysObserved = false;

/**
 * Notes each use of a data key's bytes (the digest key's, the field key's), whatever digests,
 * seals or opens with them and however the function was invoked: in AWS a function whose row
 * does not hold the key has neither its ciphertext nor kms:Decrypt on it. Patches the class
 * once per process, so every instance, built before or after, is watched.
 */
export function observeDataKeys(): void {
  if (dataKeysObserved) return;
  dataKeysObserved = true;
  const prototype = DataKey.prototype as unknown as { key: (this: DataKey) => Buffer };
  const key = prototype.key;
  prototype.key = function (this: DataKey) {
    note(`uses the ${this.spec.purpose}`);
    return key.call(this);
  };
}
