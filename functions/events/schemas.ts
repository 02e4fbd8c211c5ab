import * as z from 'zod/mini';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#domain/pagination';
import { dateTime, endAfterStart, integer, MAX_PAGE_INDEX, many } from '#shared/input-schemas';
import { EVENT_TYPES } from './event-types';

/** Request schemas of the event log (docs/api.md#event-log). */

export const eventIdParams = z.object({ id: z.uuid({ error: 'must be a UUID' }) });

export const listEventsQuery = z
  .strictObject({
    index: integer(0, MAX_PAGE_INDEX, 0),
    size: integer(0, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    event_type: z.optional(many(EVENT_TYPES)),
    start_time: z.optional(dateTime),
    end_time: z.optional(dateTime),
  })
  .check(endAfterStart);
