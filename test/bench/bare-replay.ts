import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Cipher } from '#shared/cipher/cipher';
import type { FieldCipher } from '#shared/field-cipher/index';
import type { MessageQueue } from '#shared/queue/message-queue';
import type { WebhookUrlPolicy } from '#shared/webhook-url/index';
import { type Call, type DynamoCall, renamed } from './call-recorder';

/** The bare side: a document client configured as the service's, and the same non-DynamoDB ports. */
export interface BareSide {
  readonly db: DynamoDBDocumentClient;
  readonly cipher: Cipher;
  /** A field cipher with the same key as the service's. */
  readonly fieldCipher: FieldCipher;
  readonly queue: MessageQueue;
  readonly urlPolicy: WebhookUrlPolicy;
}

/**
 * The handler's own calls of one invocation, ready to be sent again in the same order
 * with no middleware, validation or serialisation around them: DynamoDB commands on the
 * twin table (`to` instead of `from`), cipher, field-cipher, queue and URL checks on the
 * bare ports.
 * The middleware stack's table calls are left out: they are part of what the handler
 * costs. A call that failed the first time (a condition that did not hold) must fail the
 * same way again, and one that succeeded must succeed: otherwise the twin table is not in
 * step with the handler's and the figure would compare different work, so it throws.
 */
export function bareReplay(calls: readonly Call[], bare: BareSide, from: string, to: string): () => Promise<void> {
  const steps = calls.flatMap((call): (() => Promise<unknown>)[] => {
    if (call.kind === 'dynamodb') return call.owner === 'handler' ? [dynamoStep(call, bare.db, from, to)] : [];
    if (call.kind === 'cipher') return [() => bare.cipher[call.op](call.text, call.context)];
    if (call.kind === 'field') return [async () => bare.fieldCipher[call.op](call.value, call.owner, call.root)];
    if (call.kind === 'queue') return [() => bare.queue.send(call.queue, call.messages)];
    return [() => bare.urlPolicy.check(call.url)];
  });
  return async () => {
    for (const step of steps) await step();
  };
}

const WRITES = new Set(['PutCommand', 'UpdateCommand', 'DeleteCommand', 'TransactWriteCommand', 'BatchWriteCommand']);

/**
 * The middleware stack's writes made before the handler's first table call (the
 * Idempotency-Key's claim), sent on the twin table untimed: a handler whose transaction
 * completes that record on condition that the request still holds the key
 * (#shared/db/idempotency/kept-answer) finds it there, as the handler found it on its table.
 */
export function twinPreparation(calls: readonly Call[], bare: BareSide, from: string, to: string): () => Promise<void> {
  const first = calls.findIndex((call) => call.kind === 'dynamodb' && call.owner === 'handler');
  const before = first === -1 ? [] : calls.slice(0, first);
  const steps = before
    .filter(
      (call): call is DynamoCall => call.kind === 'dynamodb' && call.owner === 'stack' && WRITES.has(call.command.name),
    )
    .map((call) => dynamoStep(call, bare.db, from, to));
  return async () => {
    for (const step of steps) await step();
  };
}

function dynamoStep(call: DynamoCall, db: DynamoDBDocumentClient, from: string, to: string) {
  const input = renamed(call.input, from, to);
  const Command = call.command;
  return async () => {
    let failed: string | undefined;
    try {
      await db.send(new Command(input));
    } catch (error) {
      failed = (error as Error).name;
    }
    if (failed !== call.failed) {
      throw new Error(
        `bare ${Command.name} ${failed ? `failed (${failed})` : 'succeeded'} where the handler's ${call.failed ? `failed (${call.failed})` : 'succeeded'}: the twin table is out of step`,
      );
    }
  };
}

/** Mirrors a handler's command onto the twin table while seeding (see CallRecorder.mirror). */
export function mirrorTo(db: DynamoDBDocumentClient, from: string, to: string) {
  return async (call: DynamoCall): Promise<void> => {
    await dynamoStep(call, db, from, to)();
  };
}
