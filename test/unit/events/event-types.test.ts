import { describe, expect, it } from 'vitest';
import {
  EVENT_LOG_SCOPES,
  EVENT_READ_SCOPE,
  EVENT_TYPES,
  readableEventTypes,
} from '../../../functions/events/event-types';
import { sampleEventData } from '../../../functions/webhooks/samples';
import { ROUTES } from '../../../lib/service';

/** The record an event carries, and the route that reads that record. */
const READ_ROUTE_OF = { person: 'GET /persons/{id}', account: 'GET /verify/accounts/{id}' } as const;
const routeScopes = (key: string) => ROUTES.find((route) => `${route.method} ${route.path}` === key)?.scopes;

describe('event read scopes', () => {
  it.each(EVENT_TYPES)('%s is read with the scope of the GET route of the record it carries', (type) => {
    const [record] = Object.keys(sampleEventData(type, '2026-01-16T15:30:00.000Z')) as (keyof typeof READ_ROUTE_OF)[];
    expect(routeScopes(READ_ROUTE_OF[record as keyof typeof READ_ROUTE_OF])).toEqual([EVENT_READ_SCOPE[type]]);
  });

  it('the event log routes admit exactly the areas’ read scopes, never a webhook-configuration scope', () => {
    expect([...EVENT_LOG_SCOPES].sort()).toEqual(['read:persons', 'read:verify-accounts']);
    expect(routeScopes('GET /events')).toEqual(EVENT_LOG_SCOPES);
    expect(routeScopes('GET /events/{id}')).toEqual(EVENT_LOG_SCOPES);
    expect(
      readableEventTypes(['read:webhook-configurations', 'write:webhook-configurations', 'invoke:webhook']),
    ).toEqual([]);
  });

  it('a token reads the kinds of the areas it holds a read scope of', () => {
    expect(readableEventTypes(['read:verify-accounts'])).toEqual(['verify_account_updated']);
    expect(readableEventTypes(['read:persons']).every((type) => type.startsWith('person_'))).toBe(true);
    expect(readableEventTypes(['read:persons', 'read:verify-accounts'])).toEqual([...EVENT_TYPES]);
  });
});
