import { EVENT_LOG_SCOPES, EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { eventKeys } from '#shared/db/stored-events/keys';
import { webhookConfigurationKeys } from '#shared/db/webhook-configurations/keys';
import { batches, cycle, httpEvent, sqsEvent, streamEvent } from './lambda-events';
import { streamRouterRecords } from './table-stream';
import { ACCOUNTS_TENANT, byTenant, PERSONS_TENANT, route, type Step, sortKeysOf, times, type World } from './workload';

/**
 * Webhook configurations and secrets, the event log, and the way out: stream router,
 * webhook sender, delivery worker. A tenant holds at most 10 configurations, so they are
 * spread over 100 partners, the accounts and persons tenants among them (their events fan
 * out to 10 configurations each); every URL is the local receiver's.
 */
const PARTNERS = [
  ACCOUNTS_TENANT,
  PERSONS_TENANT,
  ...times(98, (n) => `bench-partner-${String(n + 2).padStart(2, '0')}`),
];
const partner = (i: number) => PARTNERS[i % PARTNERS.length] as string;

function configurationBody(world: World, i: number, revision = 0) {
  const slot = Math.floor(i / PARTNERS.length);
  return {
    url: `${world.receiver.url}/hooks/${partner(i)}/${slot}?rev=${revision}`,
    // Most subscribe to everything; the last two of each partner to a few kinds.
    event_types: slot < 8 ? ['subscribe_all'] : ['verify_account_updated', 'person_verified'],
    enabled: true,
  };
}

/**
 * A configuration receives only the events its saving token reads (issue 27), and the event
 * log answers only kinds the token reads: the partners' tokens read every kind.
 */
const READS_EVERY_EVENT = EVENT_LOG_SCOPES;

/** Every configuration id, with its partner, round-robin over partners. */
async function configurations(world: World): Promise<{ tenant: string; id: string }[]> {
  const perPartner = await Promise.all(
    PARTNERS.map(async (tenant) =>
      (await sortKeysOf(world, webhookConfigurationKeys.configurations(tenant))).map((id) => ({ tenant, id })),
    ),
  );
  const longest = Math.max(...perPartner.map((list) => list.length));
  return times(longest, (n) => perPartner.flatMap((list) => list.slice(n, n + 1))).flat();
}

/**
 * The accounts tenant's events, oldest first: the pipeline's and its test events
 * (InvokeWebhook's), which the event log keeps in partitions of their own. The router's step
 * runs before the verification worker settles any account, so test events may be all there is.
 */
const eventIds = async (world: World) =>
  (await byTenant(world, [eventKeys.list(ACCOUNTS_TENANT, 0), eventKeys.list(ACCOUNTS_TENANT, 0, true)])).map((event) =>
    String(event.id),
  );

const EVENT_LIST_QUERIES = ['size=10', 'size=20', 'index=1&size=10', 'event_type=verify_account_updated&size=10'];

export const WEBHOOK_STEPS: readonly Step[] = [
  {
    name: 'CreateWebhookConfiguration',
    after: [],
    expect: ['200'],
    events: async (world) =>
      times(world.invocations, (i) =>
        httpEvent(route('CreateWebhookConfiguration'), {
          tenant: partner(i),
          body: configurationBody(world, i),
          scopes: READS_EVERY_EVENT,
          ...(i % 4 === 0 && { idempotencyKey: `configuration-${i}` }),
        }),
      ),
  },
  {
    name: 'ListWebhookConfigurations',
    after: ['CreateWebhookConfiguration'],
    expect: ['200'],
    events: async (world) =>
      times(world.invocations, (i) => httpEvent(route('ListWebhookConfigurations'), { tenant: partner(i) })),
  },
  {
    name: 'ReplaceWebhookConfiguration',
    after: ['CreateWebhookConfiguration'],
    expect: ['200'],
    events: async (world) =>
      cycle(await configurations(world), world.invocations).map(({ tenant, id }, i) =>
        httpEvent(route('ReplaceWebhookConfiguration'), {
          tenant,
          pathParameters: { id },
          body: configurationBody(world, i, 1),
          scopes: READS_EVERY_EVENT,
        }),
      ),
  },
  {
    name: 'CreateWebhookSecret',
    after: [],
    expect: ['200', '201'],
    events: async (world) =>
      times(world.invocations, (i) => httpEvent(route('CreateWebhookSecret'), { tenant: partner(i) })),
  },
  {
    name: 'GetWebhookSecret',
    after: ['CreateWebhookSecret'],
    expect: ['200'],
    events: async (world) =>
      times(world.invocations, (i) => httpEvent(route('GetWebhookSecret'), { tenant: partner(i) })),
  },
  {
    name: 'InvokeWebhook',
    after: [],
    // Test events are paced per partner with redelivery (10 at once, then one a second): spread
    // over the partners, a thousand are ten each and all stored; more would meet the pacing.
    expect: ['201', '429'],
    events: async (world) =>
      times(world.invocations, (i) =>
        httpEvent(route('InvokeWebhook'), {
          tenant: partner(i),
          body: { event_type: EVENT_TYPES[i % EVENT_TYPES.length] },
          ...(i % 4 === 0 && { idempotencyKey: `invoke-${i}` }),
        }),
      ),
  },
  {
    name: 'StreamRouter',
    // It fans stored events out to the configurations, so they come first.
    after: ['CreateVerifyAccount', 'CreatePerson', 'InvokeWebhook', 'ReplaceWebhookConfiguration'],
    expect: ['ok'],
    // Every change so far that its filters let through, in stream order, a few records a batch.
    events: async (world) =>
      batches(await streamRouterRecords(world.dynamoEndpoint, world.streamArn), world.invocations, 10).map(streamEvent),
  },
  {
    name: 'WebhookDeliveryWorker',
    after: ['StreamRouter', 'CreateWebhookSecret'],
    expect: ['ok'],
    events: async (world) =>
      cycle(world.queues.bodies('webhookDeliveries'), world.invocations).map((body) =>
        sqsEvent('webhookDeliveries', [body]),
      ),
  },
  {
    name: 'ListEvents',
    after: ['WebhookDeliveryWorker'],
    expect: ['200'],
    events: async (world) =>
      cycle(EVENT_LIST_QUERIES, world.invocations).map((query) =>
        httpEvent(route('ListEvents'), { tenant: ACCOUNTS_TENANT, query, scopes: READS_EVERY_EVENT }),
      ),
  },
  {
    name: 'GetEvent',
    after: ['WebhookDeliveryWorker'],
    expect: ['200'],
    events: async (world) =>
      cycle(await eventIds(world), world.invocations).map((id) =>
        httpEvent(route('GetEvent'), { tenant: ACCOUNTS_TENANT, pathParameters: { id }, scopes: READS_EVERY_EVENT }),
      ),
  },
  {
    name: 'RedeliverEvent',
    after: ['WebhookDeliveryWorker'],
    // Redelivery is paced (10 at once per tenant, 5 per event): most of a thousand are refused.
    expect: ['202', '429'],
    events: async (world) =>
      cycle(await eventIds(world), world.invocations).map((id, i) =>
        httpEvent(route('RedeliverEvent'), {
          tenant: ACCOUNTS_TENANT,
          pathParameters: { id },
          scopes: READS_EVERY_EVENT,
          ...(i % 4 === 0 && { idempotencyKey: `redeliver-${i}` }),
        }),
      ),
  },
  {
    name: 'DeleteWebhookConfiguration',
    after: ['WebhookDeliveryWorker', 'ListWebhookConfigurations', 'RedeliverEvent'],
    expect: ['200', '204'],
    events: async (world) =>
      (await configurations(world)).slice(0, world.invocations).map(({ tenant, id }, i) =>
        httpEvent(route('DeleteWebhookConfiguration'), {
          tenant,
          pathParameters: { id },
          ...(i % 4 === 0 && { idempotencyKey: `delete-${i}` }),
        }),
      ),
  },
];
