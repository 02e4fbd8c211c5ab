import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { PersonRepository } from './repository';

export type { PersonChange, PersonListFilter, StoredPerson } from './repository';
export { PersonRepository } from './repository';

/** The person repository on the service's table; tests and the local runtime may replace it. */
export const persons = /* @__PURE__ */ port('persons', () => new PersonRepository(documentClient(), tableName()));

declare module '#shared/dependencies' {
  interface Dependencies {
    persons: PersonRepository;
  }
}
