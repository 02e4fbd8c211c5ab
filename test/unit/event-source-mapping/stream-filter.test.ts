import { describe, expect, it } from 'vitest';
import { FilterPatternError, matchesPattern, passesFilters } from '#lib/event-source-mapping/stream-filter';
import { CONSUMERS, type StreamFilter, streamFilterPattern } from '#lib/service/index';

/** A stream record in Lambda's format, reduced to what filters look at. */
const record = (eventName: string, newImage?: Record<string, unknown>, oldImage?: Record<string, unknown>) => ({
  eventID: 'e1',
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: { pk: { S: 'p' } },
    ...(newImage && { NewImage: newImage }),
    ...(oldImage && { OldImage: oldImage }),
  },
});
const entity = (name: string) => ({ entity: { S: name } });

describe('stream filters with the patterns streamFilterPattern produces (Lambda FilterCriteria semantics)', () => {
  const accounts: StreamFilter = { eventName: ['INSERT', 'MODIFY'], entity: ['verify_account'] };
  const events: StreamFilter = { eventName: ['INSERT'], entity: ['event'] };
  const patterns = [accounts, events].map(streamFilterPattern);

  it('produces the FilterCriteria pattern shape', () => {
    expect(streamFilterPattern(accounts)).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: { NewImage: { entity: { S: ['verify_account'] } } },
    });
  });

  it('lets a record through that matches any one filter', () => {
    expect(passesFilters(patterns, record('INSERT', entity('verify_account')))).toBe(true);
    expect(passesFilters(patterns, record('MODIFY', entity('verify_account')))).toBe(true);
    expect(passesFilters(patterns, record('INSERT', entity('event')))).toBe(true);
  });

  it('needs every field of a filter to match (event name AND entity)', () => {
    expect(passesFilters(patterns, record('MODIFY', entity('event')))).toBe(false);
    expect(passesFilters(patterns, record('INSERT', entity('idempotency')))).toBe(false);
  });

  it('drops a REMOVE, whose record has no NewImage, even when the old image would match', () => {
    expect(passesFilters(patterns, record('REMOVE', undefined, entity('verify_account')))).toBe(false);
  });

  it('drops an item without the attribute, or with it under another type (N is not S)', () => {
    expect(passesFilters(patterns, record('INSERT', { pk: { S: 'x' } }))).toBe(false);
    expect(passesFilters(patterns, record('INSERT', { entity: { N: '1' } }))).toBe(false);
  });

  it('compares exactly: no case folding, no prefix', () => {
    expect(passesFilters(patterns, record('INSERT', entity('Verify_Account')))).toBe(false);
    expect(passesFilters(patterns, record('INSERT', entity('verify_account_x')))).toBe(false);
    expect(passesFilters(patterns, record('insert', entity('verify_account')))).toBe(false);
  });

  it('lets everything through when a consumer has no filters', () => {
    expect(passesFilters([], record('REMOVE'))).toBe(true);
  });

  it("accepts the service consumers' own filters", () => {
    for (const consumer of CONSUMERS) {
      if (consumer.source.kind !== 'table-stream') continue;
      const own = consumer.source.filters.map(streamFilterPattern);
      expect(passesFilters(own, record('INSERT', entity('verify_account')))).toBe(true);
    }
  });
});

describe("the rest of Lambda's filter syntax", () => {
  it('matches a record value that is a list when any element matches', () => {
    expect(matchesPattern({ tags: ['b'] }, { tags: ['a', 'b'] })).toBe(true);
    expect(matchesPattern({ tags: ['c'] }, { tags: ['a', 'b'] })).toBe(false);
  });

  it('matches literals by type: numbers, booleans and null', () => {
    expect(matchesPattern({ n: [5] }, { n: 5 })).toBe(true);
    expect(matchesPattern({ n: [5] }, { n: '5' })).toBe(false);
    expect(matchesPattern({ b: [true] }, { b: true })).toBe(true);
    expect(matchesPattern({ v: [null] }, { v: null })).toBe(true);
    expect(matchesPattern({ v: [null] }, {})).toBe(false);
  });

  it('supports prefix, suffix, equals-ignore-case, anything-but and numeric', () => {
    expect(matchesPattern({ s: [{ prefix: 've' }] }, { s: 'verify' })).toBe(true);
    expect(matchesPattern({ s: [{ suffix: 'fy' }] }, { s: 'verify' })).toBe(true);
    expect(matchesPattern({ s: [{ 'equals-ignore-case': 'VERIFY' }] }, { s: 'verify' })).toBe(true);
    expect(matchesPattern({ s: [{ 'anything-but': ['a', 'b'] }] }, { s: 'c' })).toBe(true);
    expect(matchesPattern({ s: [{ 'anything-but': 'c' }] }, { s: 'c' })).toBe(false);
    expect(matchesPattern({ s: [{ 'anything-but': { prefix: 'v' } }] }, { s: 'verify' })).toBe(false);
    expect(matchesPattern({ s: [{ 'anything-but': 'c' }] }, {})).toBe(false);
    expect(matchesPattern({ n: [{ numeric: ['>', 0, '<=', 5] }] }, { n: 5 })).toBe(true);
    expect(matchesPattern({ n: [{ numeric: ['>', 0, '<=', 5] }] }, { n: 6 })).toBe(false);
  });

  it('supports exists, the only rule a missing field can match', () => {
    expect(matchesPattern({ a: [{ exists: true }] }, { a: 'x' })).toBe(true);
    expect(matchesPattern({ a: [{ exists: true }] }, {})).toBe(false);
    expect(matchesPattern({ a: [{ exists: false }] }, {})).toBe(true);
    expect(matchesPattern({ a: [{ exists: false }] }, { a: 'x' })).toBe(false);
  });

  it('refuses what it does not implement rather than matching differently', () => {
    expect(() => matchesPattern({ ip: [{ cidr: '10.0.0.0/24' }] }, { ip: '10.0.0.1' })).toThrow(FilterPatternError);
    expect(() => matchesPattern({ a: 'x' } as never, { a: 'x' })).toThrow(FilterPatternError);
  });
});
