import * as z from 'zod/mini';
import { queueWorker } from '#shared/batch';
import { fanOut } from './fan-out';

/** Webhook-events queue message (the stream router's): a stored event. */
export const publishedEventMessage = z.object({ tenant: z.string().check(z.minLength(1)), event_id: z.uuid() });

/** The webhook sender: fans each stored event out to the tenant's subscribed configurations. */
export const handler = queueWorker(
  { worker: 'webhook-sender', body: publishedEventMessage },
  async (message, logger) => {
    await fanOut(message, logger.child({ tenant: message.tenant, event_id: message.event_id }));
  },
);
