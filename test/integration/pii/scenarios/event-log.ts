import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SSNS, STRAY_EIN } from '../support';
import { dashed, digits, ok, refused, type Scenario } from './context';

/** Test events, the event log and redelivery, once everything before has produced events. */
export const EVENT_SCENARIOS: Record<string, Scenario> = {
  'POST /webhooks/invoke': async ({ alice, runtime }) => {
    ok(await alice.post('/webhooks/invoke', { event_type: 'person_verified' }), 201);
    // Orum's test request takes the person itself; one copied from a create request carries the SSN.
    const person = { id: randomUUID(), first_name: 'Test', social_security_number: dashed(SSNS.stray) };
    refused(await alice.post('/webhooks/invoke', { event_type: 'person_verified', data: person }), 400, 'invalid_data');
    const account = { id: randomUUID(), business: { business_name: 'Doe Ltd', tax_id: digits(STRAY_EIN) } };
    refused(
      await alice.post('/webhooks/invoke', { event_type: 'verify_account_updated', data: { account } }),
      400,
      'invalid_data',
    );
    refused(await alice.post('/webhooks/invoke', { event_type: digits(SSNS.stray) }), 400, 'invalid_event_type');
    await runtime.settle();
  },

  'GET /events': async ({ alice, state }) => {
    const listed = await alice.get('/events?size=500');
    ok(listed);
    // Test events are listed apart (docs/api.md#test-event): their answer is searched for leaks too.
    ok(await alice.get('/events?test=true&size=500'));
    state.eventId = listed.body.events[0]?.event_id;
    expect(state.eventId).toBeDefined();
    refused(await alice.get(`/events?event_type=${digits(SSNS.stray)}`), 400, 'invalid_event_type');
    refused(await alice.get(`/events?ssn=${digits(SSNS.stray)}`), 400, 'unknown_parameter');
  },

  'GET /events/{id}': async ({ alice, bob, state }) => {
    ok(await alice.get(`/events/${state.eventId}`));
    refused(await bob.get(`/events/${state.eventId}`), 404, 'unknown_id_event');
    refused(await alice.get(`/events/${digits(SSNS.stray)}`), 400, 'invalid_id');
  },

  'POST /events/{id}/redeliver': async ({ alice, bob, runtime, state, strayWebhookSecret }) => {
    const path = `/events/${state.eventId}/redeliver`;
    ok(await alice.post(path), 202);
    refused(await alice.post(path, { secret: strayWebhookSecret }), 400, 'unknown_field');
    refused(await bob.post(path), 404, 'unknown_id_event');
    await runtime.settle();
  },
};
