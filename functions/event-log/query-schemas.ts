import * as z from 'zod/mini';
import { ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { dateTime, endAfterStart, many, once } from '#shared/list-filters';
import { listQuery } from '#shared/list-query';

// The query of `GET /events` (docs/api.md#event-log), the event log's one request schema.

/** `true`: test events only; `false`, the default: the events of real changes only. */
const testFilter = z.pipe(
  once().check(z.refine((v) => v === 'true' || v === 'false', { message: 'must be true or false' })),
  z.transform((v: string) => v === 'true'),
);

export const listEventsQuery = listQuery({
  event_type: z.optional(many(ORUM_EVENT_TYPES)),
  test: z.optional(testFilter),
  start_time: z.optional(dateTime),
  end_time: z.optional(dateTime),
}).check(endAfterStart);
