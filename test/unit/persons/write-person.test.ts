import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Person } from '#domain/person';
import { handler as close } from '#functions/persons/handlers/close';
import { handler as patch } from '#functions/persons/handlers/patch';
import { ddb, givenStored, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';
import { countOf } from '#test/support/metrics';
import { storedPersonItem } from '#test/support/records';

/**
 * PersonStatusChanged from the person routes: a change that moves the person to another
 * status counts once; a change that leaves the status as it was counts nothing. (The
 * lifecycle itself is tested on DynamoDB Local, in test/integration/persons.)
 */
const harness = useHandlerHarness();

const PERSON_ID = '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b';

const storedPerson = (over: Partial<Person> = {}) =>
  storedPersonItem(TENANT, PERSON_ID, { status: 'verified', identification_attempts: 1, ...over });

const personEvent = (method: 'DELETE' | 'PATCH', body?: unknown) =>
  httpEvent({
    method,
    path: `/persons/${PERSON_ID}`,
    routeKey: `${method} /persons/{id}`,
    pathParameters: { id: PERSON_ID },
    body,
  });

describe('person routes: PersonStatusChanged', () => {
  it('counts one when DELETE closes the person', async () => {
    givenStored(storedPerson(), { status: 'closed', closed_at: '2026-01-16T15:30:00.000Z', version: 2 });

    const res = await invoke(close, personEvent('DELETE'));

    expect(res.statusCode).toBe(200);
    expect(res.body.person.status).toBe('closed');
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(1);
  });

  it('counts none when DELETE answers a person already closed', async () => {
    givenStored(storedPerson({ status: 'closed', closed_at: '2026-01-16T00:00:00.000Z' }));

    const res = await invoke(close, personEvent('DELETE'));

    expect(res.statusCode).toBe(200);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(0);
  });

  it('counts one when an identity change sends a verified person back to created', async () => {
    givenStored(storedPerson(), { date_of_birth: '1981-05-03', status: 'created', identification_attempts: 0 });

    const res = await invoke(patch, personEvent('PATCH', { date_of_birth: '1981-05-03' }));

    expect(res.statusCode).toBe(200);
    expect(res.body.person.status).toBe('created');
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(1);
  });

  it('counts none for a change that keeps the status', async () => {
    givenStored(storedPerson(), { metadata: { plan: 'gold' }, version: 2 });

    const res = await invoke(patch, personEvent('PATCH', { metadata: { plan: 'gold' } }));

    expect(res.statusCode).toBe(200);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(0);
  });
});
