import * as z from 'zod/mini';
import { MAX_STORED_ATTEMPTS } from '#domain/attempt-slots';
import { ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { eventData } from '#functions/event-catalogue/payloads';
import { id, timestamp } from '#shared/openapi-responses';

// What the event log answers (docs/api.md#events): the envelope exactly as webhooks carry
// it. Not imported by handlers: see #shared/openapi-responses.

export const eventType = z
  .enum(ORUM_EVENT_TYPES)
  .check(
    z.describe(
      'Kind of event (docs/api.md#event-kinds): one the service emits, or another kind of Orum’s trigger schema in a test event. Kinds may be added: accept unknown ones.',
    ),
  );

const envelopeFields = {
  event_id: id().check(z.describe('Derived from the record and its version: one change is one event.')),
  event_type: eventType,
  created_at: timestamp().check(z.describe('When the change happened.')),
  test: z.optional(
    z
      .literal(true)
      .check(
        z.describe(
          'Present on a test event (`POST /webhooks/invoke`) only: its record is a sample or what the request sent, not a change of one of your records. Not in Orum’s envelope.',
        ),
      ),
  ),
  event_data: eventData,
};

const eventEnvelope = z
  .strictObject(envelopeFields)
  .check(z.describe('An event, as the event log answers it and webhooks deliver it.'));

export const deliveryAttempt = z
  .strictObject({
    at: timestamp(),
    url: z.string(),
    status_code: z.optional(z.int().check(z.describe('The receiver’s HTTP status; absent when none came back.'))),
    latency_ms: z.int().check(z.nonnegative()),
    error: z.optional(z.string().check(z.describe('Why the attempt failed, when it did not get an answer.'))),
    final: z.optional(z.literal(true).check(z.describe('The last attempt of a delivery that gave up.'))),
  })
  .check(z.describe('One delivery attempt of the event to one configuration’s URL.'));

const eventWithAttempts = z
  .strictObject({
    ...envelopeFields,
    attempts: z
      .array(deliveryAttempt)
      .check(
        z.maxLength(MAX_STORED_ATTEMPTS),
        z.describe('The newest 100 attempts (an event keeps no more), oldest first.'),
      ),
  })
  .check(z.describe('An event and its delivery attempts.'));

export const eventsResponse = z.strictObject({
  events: z.array(eventEnvelope).check(z.describe('One page, newest first.')),
});
export const eventResponse = z.strictObject({ event: eventWithAttempts });

export const EVENT_COMPONENTS = {
  Event: eventEnvelope,
  EventWithAttempts: eventWithAttempts,
  EventsResponse: eventsResponse,
  EventResponse: eventResponse,
  DeliveryAttempt: deliveryAttempt,
  EventData: eventData,
  EventKind: eventType,
};
