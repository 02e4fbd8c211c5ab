import { describe, expect, it } from 'vitest';
import { actionsFor } from '#functions/pipeline/stream-rules';

describe('screening entry stream rules', () => {
  const entry = (list: string) => ({
    pk: 'SCREEN#x',
    sk: 'e1',
    entity: 'screening_entry',
    list,
    name_key: 'sandy sanctioned',
  });

  it('re-screens the name of a new or changed sanctions entry, though the entry belongs to no tenant', () => {
    const expected = [
      {
        kind: 'enqueue',
        queue: 'screening',
        message: { id: 'sandy sanctioned', body: { name_key: 'sandy sanctioned' } },
      },
    ];
    expect(actionsFor('INSERT', undefined, entry('sanctions'))).toEqual(expected);
    expect(actionsFor('MODIFY', entry('sanctions'), entry('sanctions'))).toEqual(expected);
  });

  it('leaves alert-list entries to identification: verified persons are restricted by sanctions only', () => {
    expect(actionsFor('INSERT', undefined, entry('alerts'))).toEqual([]);
  });
});
