import { describe, expect, it } from 'vitest';
import { foldName } from '#domain/name-folding';
import { aggregateOwnership, matchBusinessName, matchFirstName, matchLastName } from '#domain/ownership';

describe('name folding', () => {
  it.each([
    ['José Núñez', 'jose nunez'],
    ['  JOSE   NUNEZ ', 'jose nunez'],
    ["O'Brien", 'OBrien'],
    ['Mary-Jane Smith', 'Mary Jane Smith'],
    ['Zoë Ångström', 'zoe angstrom'],
    ['J. R. R. Tolkien', 'J R R Tolkien'],
  ])('treats %j and %j as the same name', (a, b) => {
    expect(foldName(a)).toBe(foldName(b));
  });

  it.each([
    ['Jane Doe', 'Jane Dow'],
    ['Ann', 'Anne'],
  ])('keeps %j and %j apart', (a, b) => {
    expect(foldName(a)).not.toBe(foldName(b));
  });
});

describe('name matching against the bank record', () => {
  const holder = 'José Núñez-Ortiz';

  it('matches a first name equal to the first word of the holder name', () => {
    expect(matchFirstName('jose', holder)).toBe('match');
    expect(matchFirstName('Jane', holder)).toBe('not_a_match');
  });

  it('matches a last name equal to the last word, hyphens and accents folded', () => {
    expect(matchLastName('Nunez Ortiz', holder)).toBe('match');
    expect(matchLastName('NÚÑEZ-ORTIZ', holder)).toBe('match');
    expect(matchLastName('Ortiz', holder)).toBe('not_a_match');
  });

  it('matches a first or last name equal to the whole holder name', () => {
    expect(matchFirstName('jose nunez ortiz', holder)).toBe('match');
    expect(matchLastName('José Núñez-Ortiz', holder)).toBe('match');
  });

  it('matches a business name only against the whole holder name', () => {
    expect(matchBusinessName('acme, inc.', 'ACME Inc')).toBe('match');
    expect(matchBusinessName('Acme', 'ACME Inc')).toBe('not_a_match');
  });
});

describe('ownership aggregation', () => {
  it('is full when every supplied field matches', () => {
    expect(aggregateOwnership(['match', 'match', 'match'])).toBe('full');
  });
  it('is partial when some match and some do not', () => {
    expect(aggregateOwnership(['match', 'not_a_match'])).toBe('partial');
    expect(aggregateOwnership(['match', 'not_found'])).toBe('partial');
  });
  it('is not_a_match when none match', () => {
    expect(aggregateOwnership(['not_a_match', 'not_found'])).toBe('not_a_match');
    expect(aggregateOwnership(['not_a_match'])).toBe('not_a_match');
  });
  it('is not_found when every field is not_found', () => {
    expect(aggregateOwnership(['not_found', 'not_found'])).toBe('not_found');
  });
});
