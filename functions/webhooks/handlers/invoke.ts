import * as z from 'zod/mini';
import { ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { testEventData } from '../request-schemas';
import { sendTestEvent } from '../test-events';

const body = z.strictObject({
  // Every kind of Orum's trigger schema: a sample of a kind the service never emits is still a valid test delivery.
  event_type: z.enum(ORUM_EVENT_TYPES, { error: `must be one of ${ORUM_EVENT_TYPES.join(', ')}` }),
  // Stored in the event log and delivered as sent: an SSN or tax id in it would be kept in the clear.
  data: z.optional(testEventData),
});

/**
 * POST /webhooks/invoke — 201, no body, as Orum: a test event of `event_type`, marked as one
 * (`test: true`), carrying `data` or a generated sample; paced with redelivery (429
 * invoke_rate_exceeded).
 */
export const handler = httpHandler({ body }, async ({ tenant, body, answers }) => {
  await sendTestEvent(tenant, body.event_type, body.data, answers?.of(answer));
  return answer();
});

const answer = (): Reply => ({ statusCode: 201 });
