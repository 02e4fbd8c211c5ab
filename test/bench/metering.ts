import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { type FunctionDefinition, LambdaInvoker } from '#lib/local/lambda-invoker';
import type { Cipher } from '#shared/cipher/cipher';
import type { Notifier } from '#shared/notify/notifier';
import type { MessageQueue, QueueId, QueueMessage } from '#shared/queue/message-queue';

/**
 * Counts what each handler invocation of the local runtime asks of AWS: DynamoDB calls
 * with the capacity DynamoDB Local reports for them, messages sent to SQS, cipher (KMS)
 * calls, log bytes. Every call is attributed to the invocation it runs in (an
 * AsyncLocalStorage opened by the metered invoker), so the benchmark's own setup calls,
 * made outside any invocation, are never counted. Only invocations begun while
 * `recording` is on are kept.
 */

/** One DynamoDB call: its operation and the capacity it is billed for. */
export interface DynamoCall {
  readonly operation: string;
  readonly writeUnits: number;
  readonly readUnits: number;
  /** Units by where DynamoDB reports them consumed: `table` and each index by name. */
  readonly byIndex: Readonly<Record<string, number>>;
  /** The items a write call names (a transaction's each), for attributing its units to partitions. */
  readonly targets: readonly WriteTarget[];
  /** Set when the call failed (e.g. ConditionalCheckFailedException). */
  readonly error?: string;
}

/** An item a write call names: its table key, and how it was written. */
export interface WriteTarget {
  readonly pk: string;
  readonly sk: string;
  /** `Put`, `Update`, `Delete` or (transactions only) `ConditionCheck`. */
  readonly action: string;
  readonly transactional: boolean;
}

/** One SendMessageBatch the queue port would make in AWS. */
export interface SqsSend {
  readonly queue: QueueId;
  readonly messages: number;
  /** Billed requests: one per batch call, one more per 64 KB chunk of payload beyond the first. */
  readonly requests: number;
}

export interface Invocation {
  /** The function (route or consumer id). */
  readonly fn: string;
  /** What it was invoked for: the route id, or the function and the kinds of records in its batch. */
  readonly label: string;
  /** Records (SQS messages or stream records) in its event; 0 for an HTTP request. */
  readonly records: number;
  readonly source: 'http' | 'queue' | 'stream' | 'other';
  readonly startedAt: number;
  durationMs: number;
  readonly dynamo: DynamoCall[];
  readonly sqs: SqsSend[];
  /** Cipher calls, each one KMS Encrypt or Decrypt in AWS. */
  readonly kms: string[];
  /** Emails sent through the notifier port (SES SendEmail in AWS). */
  emails: number;
  /** Handler log lines (and EMF metric lines) as Lambda would ship them to CloudWatch Logs. */
  logLines: number;
  logBytes: number;
}

/** The DynamoDB operations that take ReturnConsumedCapacity. */
const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** SQS bills each 64 KB chunk of a request's payload as one request. */
const SQS_CHUNK_BYTES = 64 * 1024;
const SQS_BATCH = 10;

interface MiddlewareStackHolder {
  middlewareStack: {
    add(
      middleware: (
        next: (args: { input: object }) => Promise<{ output: object }>,
        context: { commandName?: string },
      ) => (args: { input: object }) => Promise<{ output: object }>,
      options: { step: 'initialize'; name: string; override: boolean },
    ): void;
  };
}

export class Meter {
  recording = false;
  readonly invocations: Invocation[] = [];
  private readonly current = new AsyncLocalStorage<Invocation>();

  /** A LambdaInvoker that records each invocation begun while recording, and times it. */
  invoker(functionTimeoutMs?: number): LambdaInvoker {
    const meter = this;
    return new (class MeteredInvoker extends LambdaInvoker {
      override invoke(fn: FunctionDefinition, event: unknown): Promise<unknown> {
        if (!meter.recording) return super.invoke(fn, event);
        const record: Invocation = {
          fn: fn.name,
          ...describeEvent(fn.name, event),
          startedAt: Date.now(),
          durationMs: 0,
          dynamo: [],
          sqs: [],
          kms: [],
          emails: 0,
          logLines: 0,
          logBytes: 0,
        };
        meter.invocations.push(record);
        const started = performance.now();
        return meter.current.run(record, async () => {
          try {
            return await super.invoke(fn, event);
          } finally {
            record.durationMs = performance.now() - started;
          }
        });
      }
    })(functionTimeoutMs);
  }

  /**
   * Asks DynamoDB for the consumed capacity (`INDEXES`: table and each index) on every
   * call the client makes inside a metered invocation, and records it. The document
   * client shares its DynamoDBClient's middleware stack, so instrumenting it covers
   * every repository built on it.
   */
  instrumentDynamo(client: MiddlewareStackHolder): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const operation = (context.commandName ?? '').replace(/Command$/, '');
        const record = this.current.getStore();
        if (!record || !(READS.has(operation) || WRITES.has(operation))) return next(args);
        const input = args.input as { ReturnConsumedCapacity?: string; ConsistentRead?: boolean };
        input.ReturnConsumedCapacity = 'INDEXES';
        const targets = writeTargets(operation, input);
        try {
          const result = await next(args);
          const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
            .ConsumedCapacity;
          record.dynamo.push({ ...billedCall(operation, consumed, input.ConsistentRead === true), targets });
          return result;
        } catch (error) {
          record.dynamo.push({ ...failedCall(operation, error), targets });
          throw error;
        }
      },
      { step: 'initialize', name: 'benchConsumedCapacity', override: true },
    );
  }

  /** The queue port, counting each send as the SQS requests SqsMessageQueue would make. */
  queue(inner: MessageQueue): MessageQueue {
    return {
      send: async (queue: QueueId, messages: QueueMessage[]) => {
        this.current.getStore()?.sqs.push({ queue, messages: messages.length, requests: sqsRequests(messages) });
        return inner.send(queue, messages);
      },
    };
  }

  /** The cipher port, counting each call (a KMS request in AWS). */
  cipher(inner: Cipher): Cipher {
    return {
      encrypt: (plaintext, context) => {
        this.current.getStore()?.kms.push('Encrypt');
        return inner.encrypt(plaintext, context);
      },
      decrypt: (ciphertext, context) => {
        this.current.getStore()?.kms.push('Decrypt');
        return inner.decrypt(ciphertext, context);
      },
    };
  }

  /** The notifier port, counting each email (one SES SendEmail in AWS). */
  notifier(inner: Notifier): Notifier {
    return {
      send: (message) => {
        const record = this.current.getStore();
        if (record) record.emails++;
        return inner.send(message);
      },
    };
  }

  /** A log sink (setLogSink, setMetricsSink) adding each line to the invocation that wrote it. */
  readonly logLine = (line: string): void => {
    const record = this.current.getStore();
    if (!record) return;
    record.logLines++;
    record.logBytes += Buffer.byteLength(line) + 1; // the newline
  };

  reset(): void {
    this.invocations.length = 0;
  }
}

/**
 * The capacity a call is billed for. DynamoDB Local reports what AWS would with two
 * exceptions, corrected here: a Query that finds nothing reports 0, where AWS bills the
 * minimum read (1 unit strongly consistent, 0.5 eventually consistent); see `failedCall`
 * for the other.
 */
function billedCall(
  operation: string,
  consumed: ConsumedCapacity | ConsumedCapacity[] | undefined,
  consistentRead: boolean,
): Omit<DynamoCall, 'targets'> {
  const entries = [consumed ?? []].flat();
  const units = entries.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
  const byIndex: Record<string, number> = {};
  const add = (where: string, value: number | undefined) => {
    if (value) byIndex[where] = (byIndex[where] ?? 0) + value;
  };
  for (const entry of entries) {
    add('table', entry.Table?.CapacityUnits);
    for (const [name, index] of Object.entries(entry.GlobalSecondaryIndexes ?? {})) add(name, index.CapacityUnits);
  }
  if (WRITES.has(operation)) return { operation, writeUnits: units, readUnits: 0, byIndex };
  const minimum = consistentRead ? 1 : 0.5;
  return { operation, writeUnits: 0, readUnits: operation === 'Query' ? Math.max(units, minimum) : units, byIndex };
}

/**
 * A refused conditional write reports no capacity, locally or in AWS's exception, but AWS
 * bills it: at least one write unit (every item the service writes on a condition is under
 * 1 KB). A failed read is billed too, but the service has none on its happy path.
 */
function failedCall(operation: string, error: unknown): Omit<DynamoCall, 'targets'> {
  const name = error instanceof Error ? error.name : String(error);
  const writeUnits = WRITES.has(operation) ? 1 : 0;
  return { operation, writeUnits, readUnits: 0, byIndex: writeUnits ? { table: 1 } : {}, error: name };
}

/** A key attribute as the document client takes it (a string) or as the low-level client does (`{ S }`). */
const keyString = (value: unknown): string =>
  typeof value === 'string' ? value : String((value as { S?: string } | undefined)?.S ?? '');

type KeyHolder = { Key?: Record<string, unknown>; Item?: Record<string, unknown> };

/** The items a write call names, with their table keys (TABLE_SCHEMA's `pk`/`sk`). */
function writeTargets(operation: string, input: object): WriteTarget[] {
  if (!WRITES.has(operation)) return [];
  const target = (action: string, holder: KeyHolder | undefined, transactional: boolean): WriteTarget[] => {
    const key = holder?.Key ?? holder?.Item;
    return key ? [{ pk: keyString(key.pk), sk: keyString(key.sk), action, transactional }] : [];
  };
  const request = input as KeyHolder & {
    TransactItems?: Record<string, KeyHolder>[];
    RequestItems?: Record<string, { PutRequest?: KeyHolder; DeleteRequest?: KeyHolder }[]>;
  };
  switch (operation) {
    case 'PutItem':
      return target('Put', request, false);
    case 'UpdateItem':
      return target('Update', request, false);
    case 'DeleteItem':
      return target('Delete', request, false);
    case 'TransactWriteItems':
      return (request.TransactItems ?? []).flatMap((item) =>
        Object.entries(item).flatMap(([action, holder]) => target(action, holder, true)),
      );
    case 'BatchWriteItem':
      return Object.values(request.RequestItems ?? {}).flatMap((requests) =>
        requests.flatMap((r) => [...target('Put', r.PutRequest, false), ...target('Delete', r.DeleteRequest, false)]),
      );
    default:
      return [];
  }
}

function sqsRequests(messages: readonly QueueMessage[]): number {
  let requests = 0;
  for (let i = 0; i < messages.length; i += SQS_BATCH) {
    const bytes = messages
      .slice(i, i + SQS_BATCH)
      .reduce((sum, message) => sum + Buffer.byteLength(JSON.stringify(message.body)), 0);
    requests += Math.max(1, Math.ceil(bytes / SQS_CHUNK_BYTES));
  }
  return requests;
}

/** An event's kind: HTTP (the route), SQS, or a stream batch labelled by the entities and changes it holds. */
function describeEvent(fn: string, event: unknown): Pick<Invocation, 'label' | 'records' | 'source'> {
  const records = (event as { Records?: unknown[] }).Records;
  if (!Array.isArray(records)) {
    const http = typeof event === 'object' && event !== null && 'requestContext' in event;
    return { label: fn, records: 0, source: http ? 'http' : 'other' };
  }
  const first = records[0] as { eventSource?: string } | undefined;
  if (first?.eventSource === 'aws:sqs') return { label: fn, records: records.length, source: 'queue' };
  const kinds = new Set(
    records.map((record) => {
      const { eventName, dynamodb } = record as {
        eventName?: string;
        dynamodb?: { NewImage?: { entity?: { S?: string } } };
      };
      return `${dynamodb?.NewImage?.entity?.S ?? '?'} ${eventName ?? '?'}`;
    }),
  );
  return { label: `${fn} (${[...kinds].sort().join(', ')})`, records: records.length, source: 'stream' };
}
