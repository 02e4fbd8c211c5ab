import { describe, expect, it } from 'vitest';
import { actionsFor } from '#functions/pipeline/stream-rules';
import { SCREENING_SHARDS } from '#shared/db/persons/item';

describe('screening change stream rules', () => {
  const change = { pk: 'SCREEN#CHANGE#c1', sk: 'CHANGE', entity: 'screening_change', change_id: 'c1' };

  it('re-screens every shard of the verified persons against a new change, though the change belongs to no tenant', () => {
    const actions = actionsFor('INSERT', undefined, change);
    expect(actions).toHaveLength(SCREENING_SHARDS);
    expect(actions).toEqual(
      Array.from({ length: SCREENING_SHARDS }, (_, shard) => ({
        kind: 'enqueue',
        queue: 'screening',
        message: { id: `shard-${shard}`, body: { kind: 'change', change_id: 'c1', shard } },
      })),
    );
  });

  it('asks nothing of a change rewritten or removed: a change is re-screened once', () => {
    expect(actionsFor('MODIFY', change, change)).toEqual([]);
    expect(actionsFor('REMOVE', change, change)).toEqual([]);
  });
});
