import { describe, expect, it } from 'vitest';
import {
  EVENT_LOG_SCOPES,
  EVENT_READ_SCOPE,
  EVENT_TYPES,
  eventRecord,
  ORUM_EVENT_TYPES,
  readableEventTypes,
  TEST_ONLY_EVENT_TYPES,
} from '#functions/event-catalogue/kinds';
import { eventData } from '#functions/event-catalogue/payloads';
import { sampleEventData } from '#functions/webhooks/samples';
import { ROUTES } from '#lib/service/index';

/** The record an event carries, and the route that reads that record. */
const READ_ROUTE_OF = { person: 'GET /persons/{id}', account: 'GET /verify/accounts/{id}' } as const;
const routeScopes = (key: string) => ROUTES.find((route) => `${route.method} ${route.path}` === key)?.scopes;

/** The event types of Orum's trigger schema (`post-invoke`'s seven test requests), copied from it. */
const ORUM_TRIGGER_SCHEMA_TYPES = [
  ...['created', 'verified', 'rejected', 'restricted', 'unverified', 'closed'].flatMap((verb) => [
    `person_${verb}`,
    `business_${verb}`,
    `external_account_${verb}`,
  ]),
  'transfer_updated',
  'verify_account_updated',
  'subledger_created',
  'book_transfer_updated',
];

const SERVICE_RECORDS = ORUM_EVENT_TYPES.filter((type) => eventRecord(type) in READ_ROUTE_OF);
const AT = '2026-01-16T15:30:00.000Z';

describe('event kinds', () => {
  it('are every kind of Orum’s trigger schema: the emitted ones and the test-only ones, each once', () => {
    expect([...ORUM_EVENT_TYPES].sort()).toEqual([...ORUM_TRIGGER_SCHEMA_TYPES].sort());
    expect(new Set(ORUM_EVENT_TYPES).size).toBe(ORUM_EVENT_TYPES.length);
    expect(TEST_ONLY_EVENT_TYPES.filter((type) => (EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
  });

  it.each(ORUM_EVENT_TYPES)(
    'a sample %s carries one record, under the name its kind gives, as the event log answers it',
    (type) => {
      const sample = sampleEventData(type, AT);
      expect(Object.keys(sample)).toEqual([eventRecord(type)]);
      expect(eventData.safeParse(sample).success).toBe(true);
    },
  );
});

describe('event read scopes', () => {
  it.each(SERVICE_RECORDS)('%s is read with the scope of the GET route of the record it carries', (type) => {
    const record = eventRecord(type) as keyof typeof READ_ROUTE_OF;
    expect(routeScopes(READ_ROUTE_OF[record])).toEqual([EVENT_READ_SCOPE[type]]);
  });

  it('a test-only kind that carries no record of the service is read with invoke:webhook, the scope that wrote it', () => {
    const others = TEST_ONLY_EVENT_TYPES.filter((type) => !(eventRecord(type) in READ_ROUTE_OF));
    expect(others.length).toBeGreaterThan(0);
    for (const type of others) expect(EVENT_READ_SCOPE[type], type).toBe('invoke:webhook');
    expect(readableEventTypes(['invoke:webhook'])).toEqual(others);
  });

  it('the event log routes admit the areas’ read scopes and invoke:webhook, never a webhook-configuration scope', () => {
    expect([...EVENT_LOG_SCOPES].sort()).toEqual(['invoke:webhook', 'read:persons', 'read:verify-accounts']);
    expect(routeScopes('GET /events')).toEqual(EVENT_LOG_SCOPES);
    expect(routeScopes('GET /events/{id}')).toEqual(EVENT_LOG_SCOPES);
    expect(readableEventTypes(['read:webhook-configurations', 'write:webhook-configurations'])).toEqual([]);
  });

  it('a token reads the kinds of the areas it holds a read scope of', () => {
    expect(readableEventTypes(['read:verify-accounts'])).toEqual(['verify_account_updated']);
    const persons = readableEventTypes(['read:persons']);
    expect(persons.every((type) => type.startsWith('person_'))).toBe(true);
    expect(persons).toContain('person_unverified');
    expect(readableEventTypes(['read:persons', 'read:verify-accounts', 'invoke:webhook'])).toEqual([
      ...ORUM_EVENT_TYPES,
    ]);
  });
});
