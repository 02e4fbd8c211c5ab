import * as z from 'zod/mini';
import { dateTime, endAfterStart, listQuery, many } from '#shared/input-schemas';
import { ORUM_EVENT_TYPES } from '../event-catalogue/kinds';

/** Request schemas of the event log (docs/api.md#event-log). */

export const listEventsQuery = listQuery({
  event_type: z.optional(many(ORUM_EVENT_TYPES)),
  start_time: z.optional(dateTime),
  end_time: z.optional(dateTime),
}).check(endAfterStart);
