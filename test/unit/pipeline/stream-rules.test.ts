import { describe, expect, it } from 'vitest';
import { actionsFor, STREAM_RULES } from '#functions/pipeline/stream-rules';
import type { StreamChange } from '#shared/stream/rules';

describe('stream rules by entity', () => {
  const seen: StreamChange[] = [];
  const rules = {
    widget: (change: StreamChange) => {
      seen.push(change);
      return [{ kind: 'publish-event', tenant: change.tenant, eventId: 'w', eventType: 'widget_changed' } as const];
    },
  };

  it('hands a change to the rules of its entity, with its tenant and both images', () => {
    seen.length = 0;
    const before = { entity: 'widget', tenant: 't1', id: 'w1', n: 1 };
    const after = { ...before, n: 2 };
    expect(actionsFor('MODIFY', before, after, rules)).toEqual([
      { kind: 'publish-event', tenant: 't1', eventId: 'w', eventType: 'widget_changed' },
    ]);
    expect(seen).toEqual([{ eventName: 'MODIFY', tenant: 't1', oldImage: before, newImage: after }]);
  });

  it('asks nothing for an entity without rules, an item without tenant, or a record without a new image', () => {
    expect(actionsFor('INSERT', undefined, { entity: 'gadget', tenant: 't1' }, rules)).toEqual([]);
    expect(actionsFor('INSERT', undefined, { entity: 'widget' }, rules)).toEqual([]);
    expect(actionsFor('REMOVE', { entity: 'widget', tenant: 't1' }, undefined, rules)).toEqual([]);
  });

  it('has rules for verify accounts, persons, screening entries and events, and none for slots, idempotency records or aliases', () => {
    expect(Object.keys(STREAM_RULES).sort()).toEqual(['event', 'person', 'screening_change', 'verify_account']);
    expect(actionsFor('INSERT', undefined, { entity: 'verification_slot', tenant: 't1' })).toEqual([]);
    expect(actionsFor('INSERT', undefined, { entity: 'idempotency', tenant: 't1' })).toEqual([]);
  });
});
