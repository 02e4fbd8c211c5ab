import { describe, expect, it } from 'vitest';
import { storableJsonProblem } from '#shared/storable-json';

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

describe('storable JSON: what DynamoDB stores and gives back as sent', () => {
  it.each([
    ['a scalar', 'x'],
    ['numbers at the bounds', { a: [9007199254740991, -9007199254740991, 1e-130, -1e-130, 0, -0] }],
    ['null, booleans, empty strings, lists and objects', { a: null, b: true, c: '', d: [], e: {} }],
    ['keys JavaScript objects inherit, other than the two refused', { toString: 1, prototype: { valueOf: 2 } }],
    ['nesting up to the bound', nested(4)],
  ])('accepts %s', (_, value) => {
    expect(storableJsonProblem(value, 4)).toBeUndefined();
  });

  it.each([
    ['a number beyond 2^53 − 1', { a: 2 ** 53 }, /2\^53/],
    ['a number under 1e-130 in size', { a: [{ b: -1e-131 }] }, /1e-130/],
    ['a number that is not finite', [Number.NaN], /2\^53/],
    ['an empty key', { a: { '': 1 } }, /1 character/],
    ['a key named constructor', { a: [{ constructor: 1 }] }, /constructor/],
    ['a key named __proto__', JSON.parse('{"a":{"__proto__":1}}'), /__proto__/],
    ['nesting past the bound', nested(5), /at most 4 levels/],
    ['a value JSON has not', { a: undefined }, /JSON/],
  ])('refuses %s, naming the rule', (_, value, rule) => {
    expect(storableJsonProblem(value, 4)).toMatch(rule);
  });

  it('walks a nesting far past the bound without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(storableJsonProblem(deep, 16)).toMatch(/at most 16 levels/);
  });
});
