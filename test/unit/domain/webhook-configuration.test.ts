import { describe, expect, it } from 'vitest';
import { subscribes } from '#domain/webhook-configuration';

describe('which configurations take an event', () => {
  it.each([
    [['person_created'], 'person_created', true],
    [['person_created'], 'person_closed', false],
    [['subscribe_all'], 'verify_account_updated', true],
    [['person_all'], 'person_restricted', true],
    [['person_all'], 'verify_account_updated', false],
    [['verify_account_updated', 'person_verified'], 'person_verified', true],
  ])('%j takes %s: %s', (types, eventType, expected) => {
    expect(subscribes(types, eventType)).toBe(expected);
  });
});
