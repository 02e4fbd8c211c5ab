import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { ListPositions } from '../list-positions/index';
import { EventList } from './list';
import { RedeliveryLimits } from './redelivery-limits';
import { StoredEventRepository } from './repository';

export type { EventListFilter } from './list';
export { EventList } from './list';
export type { RedeliveryAdmission } from './redelivery-limits';
export { RedeliveryLimits } from './redelivery-limits';
export type { DeliveryAttempt, EventWithAttempts, StoredEvent } from './repository';
export { StoredEventRepository } from './repository';

/**
 * The stored events (each event once, with its delivery attempts) on the service's table,
 * which the event log reads and the delivery worker records to; tests may replace it.
 */
export const storedEvents = /* @__PURE__ */ port(
  'storedEvents',
  () => new StoredEventRepository(documentClient(), tableName()),
);

/** The event log's list, on the list's positions. */
export const eventList = /* @__PURE__ */ port(
  'eventList',
  () => new EventList(new ListPositions(documentClient(), tableName())),
);

/** The redelivery bounds on the service's table. */
export const redeliveryLimits = /* @__PURE__ */ port(
  'redeliveryLimits',
  () => new RedeliveryLimits(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    storedEvents: StoredEventRepository;
    eventList: EventList;
    redeliveryLimits: RedeliveryLimits;
  }
}
