import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** True when a write lost its condition (a plain conditional write or one item of a transaction). */
export function isConditionFailure(error: unknown): boolean {
  if (error instanceof ConditionalCheckFailedException) return true;
  if (error instanceof TransactionCanceledException) {
    return (error.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');
  }
  const name = (error as { name?: string } | null)?.name;
  return name === 'ConditionalCheckFailedException';
}

/** Which items of a canceled transaction failed their condition (by position). */
export function failedConditions(error: unknown): number[] {
  if (
    !(error instanceof TransactionCanceledException) &&
    (error as { name?: string })?.name !== 'TransactionCanceledException'
  ) {
    return [];
  }
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/**
 * True when a write lost a race, to be decided again on a fresh read: it lost its condition,
 * or a transaction in progress on one of its items cancelled it (`TransactionConflict`, or
 * `TransactionConflictException` for a single write).
 */
export function lostRace(error: unknown): boolean {
  if (isConditionFailure(error)) return true;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TransactionConflictException') return true;
  if (!(error instanceof TransactionCanceledException) && name !== 'TransactionCanceledException') return false;
  return ((error as TransactionCanceledException).CancellationReasons ?? []).some(
    (r) => r.Code === 'TransactionConflict',
  );
}
