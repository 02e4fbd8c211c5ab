import { describe, expect, it } from 'vitest';
import { ORUM_EVENT_TYPES, readableEventTypes } from '#functions/event-catalogue/kinds';
import { kindsToList } from '#functions/event-log/read-events';

describe('the kinds an event list reads (kindsToList)', () => {
  const persons = readableEventTypes(['read:persons']);
  const every = readableEventTypes(['read:persons', 'read:verify-accounts', 'invoke:webhook']);

  it('a kind named as many times as there are kinds is still that one kind, never "no filter"', () => {
    const repeated = ORUM_EVENT_TYPES.map(() => 'person_created' as const);
    expect(kindsToList(persons, repeated)).toEqual(['person_created']);
    expect(kindsToList(every, repeated)).toEqual(['person_created']);
  });

  it('no kind named: every kind the token reads, and no filter only when it reads every kind there is', () => {
    expect(kindsToList(persons)).toEqual(persons);
    expect(every).toEqual([...ORUM_EVENT_TYPES]);
    expect(kindsToList(every)).toBeUndefined();
  });

  it('every kind named by a token that reads every kind: no filter; by one that does not: only what it reads', () => {
    expect(kindsToList(every, [...ORUM_EVENT_TYPES, 'person_created'])).toBeUndefined();
    expect(kindsToList(persons, [...ORUM_EVENT_TYPES])).toEqual(persons);
  });
});
