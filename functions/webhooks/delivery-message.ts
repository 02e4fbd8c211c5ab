import * as z from 'zod/mini';

/**
 * The webhook-deliveries queue's message, one definition for both ends: a sender (a
 * fan-out, a retry) builds a `DeliveryMessage`, the worker parses with this schema. One
 * event to one configuration, on its `attempt`th try.
 */
export const deliveryMessage = z.object({
  tenant: z.string().check(z.minLength(1)),
  event_id: z.uuid(),
  configuration_id: z.uuid(),
  attempt: z.number().check(z.int(), z.minimum(1)),
  /**
   * Wait still to come before this attempt: a retry's wait longer than one SQS delay is
   * chained through several messages. Counted in message delays, not wall-clock time, so
   * the local runtime's compressed queues compress the whole schedule.
   */
  remaining_seconds: z.optional(z.number().check(z.minimum(0))),
  /** Every try failed: the message goes to the dead-letter queue (and its alarm) as it is. */
  exhausted: z.optional(z.boolean()),
  /**
   * Set by `POST /events/{id}/redeliver` (a fresh id per request): a redelivery's attempts
   * are new ones, not duplicates of the first delivery's.
   */
  redelivery: z.optional(z.uuid()),
});
export type DeliveryMessage = z.output<typeof deliveryMessage>;
