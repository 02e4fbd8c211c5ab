import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { ListPositions } from '../list-positions/index';
import { PersonList } from './list';
import { PersonRepository } from './repository';
import { ScreeningWalk } from './screening-walk';

export type { HitsChange, PersonChange, StoredPerson } from './change';
export type { PersonListFilter } from './list';
export { PersonList } from './list';
export { PersonRepository } from './repository';
export type { PersonRef } from './screening-walk';

/** The person repository on the service's table; tests and the local runtime may replace it. */
export const persons = /* @__PURE__ */ port('persons', () => new PersonRepository(documentClient(), tableName()));

/** The persons list, on the repository and the list's positions. */
export const personList = /* @__PURE__ */ port(
  'personList',
  () => new PersonList(persons(), new ListPositions(documentClient(), tableName())),
);

/** The verified persons of every tenant, shard by shard (the re-screens). */
export const screeningWalk = /* @__PURE__ */ port(
  'screeningWalk',
  () => new ScreeningWalk(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    screeningWalk: ScreeningWalk;
    persons: PersonRepository;
    personList: PersonList;
  }
}
