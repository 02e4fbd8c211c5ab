import { describe, expect, it } from 'vitest';
import { batchOutcome } from '#lib/event-source-mapping/batch-outcome';

describe('batch responses (ReportBatchItemFailures rules, streams and SQS alike)', () => {
  const ids = ['m1', 'm2', 'm3'];

  it('counts no answer, no list and an empty list as success', () => {
    for (const response of [undefined, null, {}, { batchItemFailures: [] }, { batchItemFailures: null }, 'ok']) {
      expect(batchOutcome(response, ids)).toEqual({ kind: 'success' });
    }
  });

  it('fails exactly the named records', () => {
    expect(batchOutcome({ batchItemFailures: [{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }] }, ids)).toEqual({
      kind: 'some-failed',
      ids: new Set(['m2', 'm3']),
    });
  });

  it('fails the whole batch for an empty, missing, misnamed or unknown identifier', () => {
    for (const failure of [
      { itemIdentifier: '' },
      { itemIdentifier: null },
      { itemId: 'm1' },
      { itemIdentifier: 'm9' },
      null,
    ]) {
      expect(batchOutcome({ batchItemFailures: [failure] }, ids).kind).toBe('all-failed');
    }
    expect(batchOutcome({ batchItemFailures: 'm1' }, ids).kind).toBe('all-failed');
  });
});
