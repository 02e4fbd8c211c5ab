import { EVENT_LOG_SCOPES } from '#functions/event-catalogue/kinds';
import { ENTITY } from '#shared/db/entities';
import type { ServiceArea } from './types';

/**
 * The event log and its way out: the stream router fans every stored event out to one
 * delivery message per subscribed configuration (from the stream image and one Query of
 * the tenant's configurations), and the delivery worker signs, sends, records and retries
 * each.
 */
export const EVENT_LOG: ServiceArea = {
  routes: [
    {
      id: 'ListEvents',
      method: 'GET',
      path: '/events',
      // An event carries a person or an account: any read scope of an area that emits events,
      // or invoke:webhook for test events of kinds no area emits; the handler answers only
      // the kinds the token's scopes read.
      scopes: EVENT_LOG_SCOPES,
      handler: 'functions/event-log/handlers/list.ts',
      listPositions: true,
      table: { actions: ['BatchGetItem'], indexes: ['byTenant'], leadingKeys: ['tenantData'] },
      // Events that carry an account are answered with its number opened.
      fieldKey: true,
    },
    {
      id: 'GetEvent',
      method: 'GET',
      path: '/events/{id}',
      scopes: EVENT_LOG_SCOPES,
      handler: 'functions/event-log/handlers/get.ts',
      // The event and its delivery attempts (one Query of the event's partition).
      table: { actions: ['Query'], leadingKeys: ['tenantData'] },
      fieldKey: true,
    },
    {
      id: 'RedeliverEvent',
      method: 'POST',
      path: '/events/{id}/redeliver',
      scopes: ['invoke:webhook'],
      handler: 'functions/event-log/handlers/redeliver.ts',
      // The event (404, its type and its redelivery pace) and the tenant's pace item
      // (REDELIVER#<tenant>), each paced by a conditional UpdateItem; then the tenant's
      // configurations, fanned out as the stream router does.
      table: [
        { actions: ['GetItem', 'UpdateItem'], leadingKeys: ['tenantData', 'redeliveryPace'] },
        { actions: ['Query'], leadingKeys: ['tenantData'] },
      ],
      sendsTo: ['webhookDeliveries'],
    },
    {
      id: 'InvokeWebhook',
      method: 'POST',
      path: '/webhooks/invoke',
      scopes: ['invoke:webhook'],
      handler: 'functions/webhooks/handlers/invoke.ts',
      // The tenant's redelivery pace (REDELIVER#<tenant>: a consistent read, a conditional
      // UpdateItem), then the test event is stored; the stream publishes it like any other.
      table: [
        { actions: ['GetItem', 'UpdateItem'], leadingKeys: ['redeliveryPace'] },
        { actions: ['PutItem'], leadingKeys: ['tenantData'] },
      ],
      // Account numbers in the test event's data are stored sealed.
      fieldKey: true,
    },
  ],
  consumers: [
    {
      id: 'WebhookDeliveryWorker',
      handler: 'functions/webhooks/handlers/delivery-worker.ts',
      // Up to 10 deliveries per invocation, sent side by side (`parallel` in the handler): a
      // slow endpoint delays no other delivery, only its batch's end; under load a batch
      // costs one invocation and one receive and delete instead of ten.
      source: { kind: 'queue', queue: 'webhookDeliveries', batchSize: 10, maxConcurrency: 50 },
      // The event and its attempts (one Query of the event's partition); the tenant's
      // configurations (a Query) and signing secrets (GetItem), each once per tenant per
      // batch; each attempt recorded beside the event.
      table: { actions: ['GetItem', 'PutItem', 'Query'], leadingKeys: ['tenantData'] },
      cipher: { decrypt: ['webhook_signing_secret'] },
      sendsTo: ['webhookDeliveries'],
      // The event is sent with its account numbers opened.
      fieldKey: true,
      timeoutSeconds: 20,
    },
  ],
  queues: {
    // A delivery message is one attempt; retries are new delayed messages, so a message is
    // received again only after an infrastructure failure, and a few receives suffice.
    webhookDeliveries: { name: 'WebhookDeliveries', visibilityTimeoutSeconds: 120, maxReceiveCount: 3 },
  },
  // A stored event (its id and type from the stream image) is fanned out: a Query of the
  // tenant's configurations (once per tenant per batch), one delivery message per
  // subscribed one (outbox).
  streamRules: {
    filters: [{ eventName: ['INSERT'], entity: [ENTITY.event] }],
    table: { actions: ['Query'], leadingKeys: ['tenantData'] },
    sendsTo: ['webhookDeliveries'],
  },
};
