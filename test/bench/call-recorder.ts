import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Cipher, CipherContext } from '#shared/cipher/cipher';
import type { FieldCipher, FieldOwner } from '#shared/field-cipher/index';
import type { MessageQueue, QueueId, QueueMessage } from '#shared/queue/message-queue';
import type { WebhookUrlPolicy } from '#shared/webhook-url/index';

/**
 * What a handler sent out during one invocation, in order: every DynamoDB command (with
 * whose it was: the HTTP middleware stack's or the handler's own), every cipher, queue and
 * webhook-URL call. The overhead benchmark replays the handler's own calls with a bare
 * client; the list benchmark reads the capacity and items each command consumed.
 */
export type Call = DynamoCall | CipherCall | FieldCall | QueueCall | UrlCheckCall;

/** `stack`: the middleware's tenant alias, rate bucket and idempotency record; `handler`: the rest. */
export type CallOwner = 'stack' | 'handler';

type CommandClass = new (input: any) => any;

export interface DynamoCall {
  readonly kind: 'dynamodb';
  readonly owner: CallOwner;
  readonly command: CommandClass;
  /** The command's input as the service built it (the document client never mutates it). */
  readonly input: Record<string, any>;
  /** The error's name when the call failed (e.g. a condition that did not hold). */
  failed?: string;
  /** Capacity units consumed, when the recorder asked for them. */
  capacity?: number;
  /** Items a Query or Scan evaluated. */
  scanned?: number;
  /** When it was sent (performance.now()), and how long it took, as the service saw it (ms). */
  startedAt?: number;
  ms?: number;
}

export interface CipherCall {
  readonly kind: 'cipher';
  readonly op: 'encrypt' | 'decrypt';
  readonly text: string;
  readonly context: CipherContext;
}

/** An account number sealed into or opened from a stored document with the field key (#shared/field-cipher). */
export interface FieldCall {
  readonly kind: 'field';
  readonly op: 'sealWithin' | 'openWithin';
  readonly value: unknown;
  readonly owner: FieldOwner;
  readonly root: string;
}

export interface QueueCall {
  readonly kind: 'queue';
  readonly queue: QueueId;
  readonly messages: QueueMessage[];
}

export interface UrlCheckCall {
  readonly kind: 'url-check';
  readonly url: string;
}

/**
 * Collects calls while a recording runs. While `mirror` is set, every command of the
 * handler's own is also sent, after its original, to a twin table, so that table holds
 * exactly what the service wrote (used while seeding; see overhead.ts).
 */
export class CallRecorder {
  private recording: Call[] | undefined;
  private readonly clients: DynamoDBDocumentClient[] = [];
  /** Ask every command for `ReturnConsumedCapacity: TOTAL` (an extra field in each answer, so not while timing). */
  consumedCapacity = false;
  mirror: ((call: DynamoCall, error: unknown) => Promise<void>) | undefined;

  start(): void {
    this.recording = [];
  }

  stop(): Call[] {
    const calls = this.recording ?? [];
    this.recording = undefined;
    return calls;
  }

  push(call: Call): void {
    this.recording?.push(call);
  }

  /** A document client configured as the service's own (functions/shared/dependencies.ts) whose commands are recorded. */
  documentClient(owner: CallOwner): DynamoDBDocumentClient {
    const client = serviceDocumentClient();
    this.clients.push(client);
    const send = client.send.bind(client) as (command: any, options?: any) => Promise<any>;
    const recorded = async (command: any, options?: any): Promise<any> => {
      if (this.consumedCapacity) command.input.ReturnConsumedCapacity = 'TOTAL';
      const call: DynamoCall = { kind: 'dynamodb', owner, command: command.constructor, input: command.input };
      this.push(call);
      let failure: unknown;
      const started = performance.now();
      call.startedAt = started;
      try {
        const out = await send(command, options);
        call.capacity = sumCapacity(out?.ConsumedCapacity);
        call.scanned = out?.ScannedCount;
        return out;
      } catch (error) {
        failure = error;
        call.failed = (error as Error).name;
        throw error;
      } finally {
        call.ms = performance.now() - started;
        if (this.mirror && owner === 'handler') await this.mirror(call, failure);
      }
    };
    return Object.assign(client, { send: recorded }) as DynamoDBDocumentClient;
  }

  /** Closes the clients' connections. */
  destroy(): void {
    for (const client of this.clients.splice(0)) client.destroy();
  }

  /** The cipher, its calls recorded. */
  cipher(inner: Cipher): Cipher {
    return {
      encrypt: (text, context) => {
        this.push({ kind: 'cipher', op: 'encrypt', text, context });
        return inner.encrypt(text, context);
      },
      decrypt: (text, context) => {
        this.push({ kind: 'cipher', op: 'decrypt', text, context });
        return inner.decrypt(text, context);
      },
    };
  }

  /**
   * The field cipher, its seals and opens recorded (the rest of it, such as loading its key,
   * as it is). Whoever asked (the handler's repositories, or the idempotency record of the
   * middleware) the bare side does the same work.
   */
  fieldCipher(inner: FieldCipher): FieldCipher {
    const record = (op: FieldCall['op']) => (value: unknown, owner: FieldOwner, root: string) => {
      this.push({ kind: 'field', op, value, owner, root });
      return inner[op](value, owner, root);
    };
    const recorded = { sealWithin: record('sealWithin'), openWithin: record('openWithin') };
    return new Proxy(inner, {
      get: (target, property) => {
        if (property === 'sealWithin' || property === 'openWithin') return recorded[property];
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** The queues, their sends recorded. */
  queue(inner: MessageQueue): MessageQueue {
    return {
      send: (queue, messages) => {
        this.push({ kind: 'queue', queue, messages });
        return inner.send(queue, messages);
      },
    };
  }

  /** The webhook URL policy, its checks recorded. */
  urlPolicy(inner: WebhookUrlPolicy): WebhookUrlPolicy {
    return {
      check: (url) => {
        this.push({ kind: 'url-check', url });
        return inner.check(url);
      },
    };
  }
}

/** A document client made exactly as the service makes its own: endpoint and region from the environment. */
export function serviceDocumentClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}

function sumCapacity(consumed: unknown): number | undefined {
  if (consumed === undefined) return undefined;
  const all = (Array.isArray(consumed) ? consumed : [consumed]) as { CapacityUnits?: number }[];
  return all.reduce((sum, one) => sum + (one.CapacityUnits ?? 0), 0);
}

export const dynamoCalls = (calls: readonly Call[], owner?: CallOwner): DynamoCall[] =>
  calls.filter((call): call is DynamoCall => call.kind === 'dynamodb' && (!owner || call.owner === owner));

/** Every string equal to `from`, as a value or a key, becomes `to` (table names inside command inputs). */
export function renamed<T>(value: T, from: string, to: string): T {
  if (value === from) return to as T;
  if (Array.isArray(value)) return value.map((item) => renamed(item, from, to)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key === from ? to : key, renamed(inner, from, to)]),
    ) as T;
  }
  return value;
}
