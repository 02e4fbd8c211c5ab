import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, retryAfter } from '#shared/errors';
import { failedConditions } from '../conditions';

// A request's answer kept in the transaction of the work it answers for (docs/decisions.md,
// "A request's answer is written with its work"). A request with an `Idempotency-Key` that
// did its work and then could not write the key's record (the table away longer than the
// function's time) answered 5xx, its key was freed, and the partner's retry did the work
// again. Written in one transaction with the work, the record holds the answer exactly when
// the work is done: the retry replays it.

/** One item of a TransactWriteItems, as the document client takes it. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** An Update of a TransactWriteItems. */
export type TransactUpdate = NonNullable<TransactItem['Update']>;

/** A request's answer, to write with its work. */
export interface KeptAnswer {
  /** The Idempotency-Key's record completed with the answer, on condition that the request still holds the key. */
  readonly record: TransactUpdate;
  /** Told once the work's transaction, the record in it, is written: the answer is kept. */
  written(): void;
}

/** The answer a request gives for the result its write is about to store: the use case's side of `HandlerRequest.answers`. */
export type KeepAnswer<T> = (result: T) => KeptAnswer;

/**
 * The request's hold on its key lapsed while it ran and another request with the key holds
 * it now: its work was not written (the transaction failed on the record's condition), and
 * the key's record is the other request's to write.
 */
export class KeyNoLongerHeld extends ConflictError {
  constructor() {
    super(
      'idempotency_key_in_use',
      'another request with this Idempotency-Key is in progress; retry after 1 s',
      ...retryAfter(1),
    );
  }
}

/**
 * Writes a work's items (a put, an update, a transaction's items) and the answer's record,
 * last, in one transaction. A condition of the work that fails surfaces as the canceled
 * transaction, whose reasons the caller reads by the work's positions (`failedConditions`,
 * `isConditionFailure`) as it read its own transaction's or command's; the record's alone
 * is `KeyNoLongerHeld`.
 */
export async function writeWithAnswer(
  db: DynamoDBDocumentClient,
  work: readonly TransactItem[],
  kept: KeptAnswer,
): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: [...work, { Update: kept.record }] }));
  } catch (error) {
    const failed = failedConditions(error);
    if (failed.length === 1 && failed[0] === work.length) throw new KeyNoLongerHeld();
    throw error;
  }
  kept.written();
}

/** A transaction's items, with the answer's record when one is `kept` (`writeWithAnswer`). */
export async function writeTransaction(
  db: DynamoDBDocumentClient,
  items: readonly TransactItem[],
  kept?: KeptAnswer,
): Promise<void> {
  if (kept) return writeWithAnswer(db, items, kept);
  await db.send(new TransactWriteCommand({ TransactItems: [...items] }));
}
