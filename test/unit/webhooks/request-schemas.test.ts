import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { handler as invokeHandler } from '#functions/webhooks/handlers/invoke';
import { configurationIdParams } from '#functions/webhooks/path-params';
import { configurationBody } from '#functions/webhooks/request-schemas';
import { AppError } from '#shared/errors';
import { type InputSource, parseInput } from '#shared/validation';

const codeOf = (schema: z.core.$ZodType, input: unknown, source: InputSource = 'body'): string => {
  try {
    parseInput(schema, input, source);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return `${error.statusCode} ${error.code}`;
  }
};

const valid = { url: 'https://hooks.example.com/orum', event_types: ['person_all'], enabled: true };
const without = (key: string) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));

describe('webhook configuration body', () => {
  it.each([
    ['a complete body', valid, 'accepted'],
    [
      'every known kind and both groups',
      { ...valid, event_types: ['subscribe_all', 'verify_account_updated', 'person_closed'] },
      'accepted',
    ],
    [
      'an http URL (the URL policy, not the schema, decides on schemes)',
      { ...valid, url: 'http://127.0.0.1:8080/h' },
      'accepted',
    ],
    ['url absent', without('url'), '400 missing_url'],
    ['url not a string', { ...valid, url: 42 }, '400 invalid_url'],
    ['url relative', { ...valid, url: '/hooks' }, '400 invalid_url'],
    ['url of another scheme', { ...valid, url: 'ftp://example.com/h' }, '400 invalid_url'],
    ['url with credentials', { ...valid, url: 'https://user:pw@example.com/h' }, '400 invalid_url'],
    [
      'url longer than 2048 characters',
      { ...valid, url: `https://example.com/${'a'.repeat(2030)}` },
      '400 invalid_url',
    ],
    ['event_types absent', without('event_types'), '400 missing_event_types'],
    ['event_types empty', { ...valid, event_types: [] }, '400 invalid_event_types'],
    ['event_types not a list', { ...valid, event_types: 'person_all' }, '400 invalid_event_types'],
    ['an unknown event type', { ...valid, event_types: ['person_all', 'transfer_updated'] }, '400 invalid_event_types'],
    ['an event type that is not a string', { ...valid, event_types: [1] }, '400 invalid_event_types'],
    ['more than 50 event types', { ...valid, event_types: Array(51).fill('person_all') }, '400 invalid_event_types'],
    ['enabled absent', without('enabled'), '400 missing_enabled'],
    ['enabled a string', { ...valid, enabled: 'true' }, '400 invalid_enabled'],
    ['an unknown field', { ...valid, secret: 'x' }, '400 unknown_field'],
  ])('%s: %s', (_, body, expected) => {
    expect(codeOf(configurationBody, body)).toBe(expected);
  });

  it('keeps each event type once, in the order given', () => {
    const parsed = parseInput(
      configurationBody,
      { ...valid, event_types: ['person_created', 'person_all', 'person_created'] },
      'body',
    );
    expect(parsed.event_types).toEqual(['person_created', 'person_all']);
  });
});

describe('webhook configuration id', () => {
  it('answers a malformed id as an unknown one: 404 unknown_id_webhook_configuration', () => {
    expect(codeOf(configurationIdParams, { id: 'not-a-uuid' }, 'path')).toBe('404 unknown_id_webhook_configuration');
    expect(codeOf(configurationIdParams, { id: '7d3e2b8a-4c1f-4e6a-9b0d-2f5a8c1e3d47' }, 'path')).toBe('accepted');
  });
});

describe('test event data (POST /webhooks/invoke)', () => {
  const invokeBody = invokeHandler.request.body as z.core.$ZodType;
  /** As the body parser makes it: JSON.parse keeps `__proto__` as an own key. */
  const withData = (json: string) => JSON.parse(`{"event_type":"person_verified","data":${json}}`);
  const nested = (depth: number): unknown => (depth === 0 ? 'x' : { a: nested(depth - 1) });

  it.each([
    ['a record as GET answers it', '{"id":"x","status":"verified","metadata":{"n":1,"z":0,"t":1e-130}}'],
    ['numbers at the bounds', '{"max":9007199254740991,"min":-9007199254740991,"tiny":-1e-130,"zero":-0}'],
    ['keys JavaScript objects inherit, other than the two refused', '{"toString":"x","prototype":{"valueOf":1}}'],
    ['an empty string value and an empty list', '{"a":"","b":[],"c":{}}'],
    ['16 levels of nesting', JSON.stringify(nested(16))],
  ])('accepts %s', (_, data) => {
    expect(codeOf(invokeBody, withData(data))).toBe('accepted');
  });

  it.each([
    ['a number beyond 2^53 − 1', '{"n":12345678901234567890}'],
    ['a number beyond −(2^53 − 1)', '{"a":[{"n":-9007199254740992}]}'],
    ['a number under 1e-130 in size', '{"n":1e-131}'],
    ['a number under 1e-130 in size inside a list', '{"a":[1,-1e-200]}'],
    ['an empty key', '{"":1}'],
    ['an empty key at depth', '{"a":{"b":[{"":1}]}}'],
    ['a key named constructor', '{"constructor":"x"}'],
    ['a key named constructor at depth', '{"a":[{"constructor":{}}]}'],
    ['a key named __proto__', '{"__proto__":{"x":1}}'],
    ['a key named __proto__ at depth', '{"a":{"__proto__":"x"}}'],
    ['17 levels of nesting', JSON.stringify(nested(17))],
  ])('refuses data holding %s: 400 invalid_data', (_, data) => {
    expect(codeOf(invokeBody, withData(data))).toBe('400 invalid_data');
  });

  it('says which rule the data breaks, never the value or the key', () => {
    try {
      parseInput(invokeBody, withData('{"secret-123-45-6789":12345678901234567890}'), 'body');
      expect.unreachable('refused');
    } catch (error) {
      const { message, details } = error as AppError;
      expect(message).toMatch(/2\^53/);
      expect(JSON.stringify({ message, details })).not.toMatch(/123-45-6789|12345678901234567890/);
    }
  });
});
