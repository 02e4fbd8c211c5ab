import { eventResponse, eventsResponse } from '#functions/event-log/openapi-responses';
import * as examples from '../examples/event-log';
import { ARRAY, LIST } from './parameters';
import type { OperationSpec } from './types';

const eventId = {
  id: 'The event’s id. Malformed: `400 invalid_id`; unknown, another tenant’s or expired: `404 unknown_id_event`.',
};

/** The OpenAPI words of lib/service/event-log.ts's routes, by route id. */
export const EVENT_LOG_OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  ListEvents: {
    operationId: 'get-events',
    summary: 'List events',
    description:
      'One page of the tenant’s events of the last 30 days, newest first, of the kinds the token reads: `read:persons` reads `person_*` events, `read:verify-accounts` `verify_account_updated`, `invoke:webhook` the test events of kinds only a test event has (`business_*`, `external_account_*`, `transfer_updated`, `subledger_created`, `book_transfer_updated`); any of these scopes admits the route. An `event_type` filter naming a kind the token does not read answers `403 insufficient_scope`. Test events (`POST /webhooks/invoke`, marked `test: true`) are listed only with `test=true`.',
    tag: 'Events',
    parameters: {
      ...LIST,
      event_type: ARRAY,
      test: '`true`: test events (`POST /webhooks/invoke`) only; `false`, the default: the events of changes of your records only.',
    },
    success: {
      status: 200,
      description: 'One page.',
      body: eventsResponse,
      examples: { page: examples.EVENT_RESPONSES.list },
    },
    errors: { 403: ['insufficient_scope'] },
  },
  GetEvent: {
    operationId: 'get-event',
    summary: 'Get an event and its delivery attempts',
    description:
      'The event (a test event too, marked `test: true`), and its newest 100 attempts to deliver it to each configuration (an event keeps no more, so this is not paged). Read with its kind’s scope (`read:persons` for `person_*`, `read:verify-accounts` for `verify_account_updated`, `invoke:webhook` for the kinds only a test event has): another kind answers `403 insufficient_scope`.',
    tag: 'Events',
    parameters: eventId,
    success: {
      status: 200,
      description: 'The event.',
      body: eventResponse,
      examples: { attempts: examples.EVENT_RESPONSES.withAttempts },
    },
    errors: { 403: ['insufficient_scope'], 404: ['unknown_id_event'] },
  },
  RedeliverEvent: {
    operationId: 'post-event-redeliver',
    summary: 'Deliver an event again',
    description:
      'Sends the event again, with the same `webhook-id`, to every configuration subscribed to it now. Besides `invoke:webhook`, the token must hold the scope that reads the event’s kind (`read:persons` for `person_*`, `read:verify-accounts` for `verify_account_updated`), else `403 insufficient_scope`, before any budget is used. No body (`{}` or empty). Paced: one event 5 times at once, then once every 4.8 hours (`429 too_many_redeliveries`); one tenant 10 events at once, then one a second, test events (`POST /webhooks/invoke`) included (`429 redelivery_rate_exceeded`); each with `Retry-After`. An unknown event uses no budget.',
    tag: 'Events',
    parameters: eventId,
    requestBody: { name: 'EmptyRequest', description: 'No fields: an empty body or `{}`.' },
    success: { status: 202, description: 'Accepted: the event goes out again.' },
    errors: {
      403: ['insufficient_scope'],
      404: ['unknown_id_event'],
      429: ['too_many_redeliveries', 'redelivery_rate_exceeded'],
    },
  },
};
