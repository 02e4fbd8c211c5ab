import { ENTITY } from '#shared/db/entities';
import type { ServiceArea } from './types';

/**
 * The event log and its way out: every stored event is handed to the webhook-events
 * queue once. (Webhook configuration is lib/service/webhooks.ts.)
 */
export const EVENTS: ServiceArea = {
  routes: [],
  consumers: [],
  queues: {
    webhookEvents: { name: 'WebhookEvents', visibilityTimeoutSeconds: 180, maxReceiveCount: 8 },
  },
  // A stored event is read, queued and marked queued (outbox).
  streamRules: {
    filters: [{ eventName: ['INSERT'], entity: [ENTITY.event] }],
    table: { actions: ['GetItem', 'UpdateItem'] },
    sendsTo: ['webhookEvents'],
  },
};
