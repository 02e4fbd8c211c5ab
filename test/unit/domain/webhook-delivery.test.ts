import { describe, expect, it } from 'vitest';
import {
  DELIVERY_TIMEOUT_MS,
  isSubscribableEventType,
  isSuccess,
  MAX_ATTEMPTS,
  nextAttemptDelay,
  RETRY_DELAYS_SECONDS,
  SUBSCRIBE_ALL,
  subscribes,
  webhookEventTypes,
} from '#domain/webhook-delivery';

// The catalogue as functions/event-catalogue/kinds.ts joins it today.
const CATALOGUE = [
  'person_created',
  'person_verified',
  'person_rejected',
  'person_restricted',
  'person_closed',
  'verify_account_updated',
];

describe('webhook retries', () => {
  it('waits about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h between attempts', () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000]);
  });

  it('makes 7 attempts in all', () => {
    expect(MAX_ATTEMPTS).toBe(7);
    const delays = [1, 2, 3, 4, 5, 6].map(nextAttemptDelay);
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000]);
  });

  it('sends the first attempt at once', () => {
    expect(nextAttemptDelay(0)).toBe(0);
  });

  it('gives up after the seventh attempt', () => {
    expect(nextAttemptDelay(7)).toBeUndefined();
    expect(nextAttemptDelay(8)).toBeUndefined();
  });

  it.each([-1, 1.5, Number.NaN])('refuses %s as a count of attempts', (attempts) => {
    expect(() => nextAttemptDelay(attempts)).toThrow(RangeError);
  });
});

describe('webhook success', () => {
  it.each([200, 201, 202, 204, 299])('counts %i as delivered', (status) => {
    expect(isSuccess(status)).toBe(true);
  });

  it.each([100, 199, 301, 302, 304, 400, 404, 410, 429, 500, 503, 0])(
    'counts %i as failed, to be retried',
    (status) => {
      expect(isSuccess(status)).toBe(false);
    },
  );

  it('waits 10 s for an answer', () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
  });
});

describe('webhook subscriptions', () => {
  it('delivers an event to a configuration that lists its exact type', () => {
    expect(subscribes(['person_verified'], 'person_verified')).toBe(true);
    expect(subscribes(['person_verified'], 'person_rejected')).toBe(false);
  });

  it('delivers every event to subscribe_all', () => {
    for (const type of CATALOGUE) expect(subscribes([SUBSCRIBE_ALL], type), type).toBe(true);
  });

  it('delivers every person_* event, and only those, to person_all', () => {
    for (const type of CATALOGUE.filter((t) => t.startsWith('person_'))) {
      expect(subscribes(['person_all'], type), type).toBe(true);
    }
    expect(subscribes(['person_all'], 'verify_account_updated')).toBe(false);
  });

  it('matches a group only on a whole prefix: person_all does not cover personal_x', () => {
    expect(subscribes(['person_all'], 'personal_updated')).toBe(false);
  });

  it('delivers nothing to a configuration that lists nothing', () => {
    expect(subscribes([], 'person_created')).toBe(false);
  });

  it('delivers verify_account_updated to a configuration that lists it or subscribe_all', () => {
    expect(subscribes(['verify_account_updated'], 'verify_account_updated')).toBe(true);
    expect(subscribes(['person_all', SUBSCRIBE_ALL], 'verify_account_updated')).toBe(true);
  });
});

describe('what a webhook configuration may list', () => {
  it('is subscribe_all, person_all and every kind of the catalogue', () => {
    expect(webhookEventTypes(CATALOGUE)).toEqual(['subscribe_all', 'person_all', ...CATALOGUE]);
  });

  it.each(['subscribe_all', 'person_all', 'person_closed', 'verify_account_updated'])('accepts %s', (value) => {
    expect(isSubscribableEventType(value, CATALOGUE)).toBe(true);
  });

  it.each(['verify_account_all', 'person_deleted', 'PERSON_ALL', '_all', ''])(
    'refuses %j, which neither Orum nor the catalogue offers',
    (value) => {
      expect(isSubscribableEventType(value, CATALOGUE)).toBe(false);
    },
  );
});
