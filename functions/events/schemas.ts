import * as z from 'zod/mini';
import { ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { dateTime, endAfterStart, listQuery, many } from '#shared/input-schemas';

// Request schemas of the event log (docs/api.md#event-log).

export const listEventsQuery = listQuery({
  event_type: z.optional(many(ORUM_EVENT_TYPES)),
  start_time: z.optional(dateTime),
  end_time: z.optional(dateTime),
}).check(endAfterStart);
