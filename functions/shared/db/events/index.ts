import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { RedeliveryLimits } from './redelivery-limits';
import { EventRepository } from './repository';

export type { EventListFilter } from './list';
export type { RedeliveryAdmission } from './redelivery-limits';
export { RedeliveryLimits } from './redelivery-limits';
export type { DeliveryAttempt, EventWithAttempts, StoredEvent } from './repository';
export { EventRepository } from './repository';

/** The event log on the service's table; tests and the local runtime may replace it. */
export const events = /* @__PURE__ */ port('events', () => new EventRepository(documentClient(), tableName()));

/** The redelivery bounds on the service's table. */
export const redeliveryLimits = /* @__PURE__ */ port(
  'redeliveryLimits',
  () => new RedeliveryLimits(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    events: EventRepository;
    redeliveryLimits: RedeliveryLimits;
  }
}
