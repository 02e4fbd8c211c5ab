import { type EventEnvelope, eventId } from '#domain/event-envelope';
import type { Person, PersonStatus } from '#domain/person';
import { presentPerson } from './present';

/** The event kinds of persons, one per status a person can reach. */
export const PERSON_EVENT_TYPES = [
  'person_created',
  'person_verified',
  'person_rejected',
  'person_restricted',
  'person_closed',
] as const;
type PersonEventType = (typeof PERSON_EVENT_TYPES)[number];

const EVENT_OF_STATUS: Record<PersonStatus, PersonEventType> = {
  created: 'person_created',
  verified: 'person_verified',
  rejected: 'person_rejected',
  restricted: 'person_restricted',
  closed: 'person_closed',
};

/** The event of the person's current status; its id is fixed by the person id and version. */
export function personEvent(person: Person): EventEnvelope {
  const type = EVENT_OF_STATUS[person.status];
  return {
    event_id: eventId(type, person.id, person.version),
    event_type: type,
    created_at: person.updated_at,
    event_data: { person: presentPerson(person) },
  };
}
