/**
 * What a stream or queue consumer's answer means, by Lambda's rules for
 * ReportBatchItemFailures (the same for DynamoDB streams and SQS):
 * - success: no answer, an answer without `batchItemFailures`, or an empty list;
 * - the whole batch failed: the function threw or timed out, or the list holds an entry
 *   whose `itemIdentifier` is missing, empty or names no record of the batch;
 * - otherwise exactly the named records failed.
 */
export type BatchOutcome =
  | { readonly kind: 'success' }
  | { readonly kind: 'all-failed'; readonly reason: string }
  | { readonly kind: 'some-failed'; readonly ids: ReadonlySet<string> };

export function batchOutcome(response: unknown, batchIds: readonly string[]): BatchOutcome {
  if (response === null || typeof response !== 'object') return { kind: 'success' };
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return { kind: 'success' };
  if (!Array.isArray(failures)) return { kind: 'all-failed', reason: 'batchItemFailures is not a list' };
  if (failures.length === 0) return { kind: 'success' };

  const known = new Set(batchIds);
  const ids = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !known.has(id)) {
      return {
        kind: 'all-failed',
        reason: `batchItemFailures names ${JSON.stringify(id ?? null)}, which is not in the batch`,
      };
    }
    ids.add(id);
  }
  return { kind: 'some-failed', ids };
}
