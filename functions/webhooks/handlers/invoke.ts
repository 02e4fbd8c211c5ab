import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { eventRecord, ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { events } from '#shared/db/events/index';
import { now } from '#shared/dependencies';
import { httpHandler } from '#shared/http/handler';
import { sampleEventData } from '../samples';
import { testEventData } from '../schemas';

const body = z.strictObject({
  // Every kind of Orum's trigger schema: a sample of a kind the service never emits is still a valid test delivery.
  event_type: z.enum(ORUM_EVENT_TYPES, { error: `must be one of ${ORUM_EVENT_TYPES.join(', ')}` }),
  // Stored in the event log and delivered as sent: an SSN or tax id in it would be kept in the clear.
  data: z.optional(testEventData),
});

/**
 * POST /webhooks/invoke — 201, no body, as Orum: a test event of `event_type` carrying
 * `data` (the record itself, as Orum's test request has it, under `event_data.<record>`) or
 * a generated sample. It is stored in the event log and goes out through the real delivery
 * path, so its delivery attempts show in `GET /events/{id}`.
 */
export const handler = httpHandler({ body }, async ({ tenant, body }) => {
  const at = now().toISOString();
  await events().store(tenant, {
    event_id: randomUUID(),
    event_type: body.event_type,
    created_at: at,
    event_data: body.data ? { [eventRecord(body.event_type)]: body.data } : sampleEventData(body.event_type, at),
  });
  return { statusCode: 201 };
});
