import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { EventRepository } from './repository';

export type { DeliveryAttempt, EventListFilter, EventWithAttempts, StoredEvent } from './repository';
export { EventRepository } from './repository';

/** The event log on the service's table; tests and the local runtime may replace it. */
export const events = /* @__PURE__ */ port('events', () => new EventRepository(documentClient(), tableName()));
