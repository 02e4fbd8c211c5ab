import { describe, expect, it } from 'vitest';
import {
  changedFields,
  type StoredValue,
  type VersionedChange,
  versionedUpdateInput,
} from '#shared/db/versioned-update';

const key = { pk: 'T#t1#THING#1', sk: 'THING' };
const T0 = new Date('2026-03-02T10:00:00.000Z');
const input = <S extends Record<string, StoredValue>>(change: VersionedChange<S>) =>
  versionedUpdateInput('table', key, 3, change, T0);

describe('versionedUpdateInput', () => {
  it('sets what set names and removes exactly what remove names, stamping updated_at and bumping the version', () => {
    const update = input({ set: { control_attempts: 1 }, remove: ['note'] });
    expect(update.UpdateExpression).toBe(
      'SET updated_at = :now, version = :next, #control_attempts = :control_attempts REMOVE #note',
    );
    expect(update.ExpressionAttributeValues).toEqual({
      ':now': T0.toISOString(),
      ':next': 4,
      ':v': 3,
      ':control_attempts': 1,
    });
    expect(update.ConditionExpression).toBe('version = :v');
  });

  it('makes a value in set that may be undefined a type error (optional fields included)', () => {
    const maybe = { control_status: undefined as string | undefined };
    const partial: { control_attempts: number; control_status?: string } = { control_attempts: 1 };
    // @ts-expect-error a value that may be undefined: name the field in remove, or leave it out
    expect(() => input({ set: maybe })).toThrow(/control_status/);
    // @ts-expect-error an optional field may be undefined as well
    expect(input({ set: partial }).UpdateExpression).not.toContain('REMOVE');
  });

  it('never removes an attribute whose value in set is undefined: the write is refused before it is sent', () => {
    // The type forbids it; a value that reaches here anyway (a cast) is a programming error, not a remove.
    const change = { set: { control_attempts: 1, control_status: undefined } } as unknown as VersionedChange;
    expect(() => input(change)).toThrow(/control_status/);
  });
});

describe('changedFields', () => {
  it('keeps the defined fields of a partial change and leaves out the absent ones (absent means unchanged)', () => {
    const partial: { debit_status: string; debit_status_reason?: string; person?: object } = {
      debit_status: 'valid',
      debit_status_reason: undefined,
    };
    expect(changedFields(partial)).toEqual({ debit_status: 'valid' });
  });
});
