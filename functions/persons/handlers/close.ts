import type { Person } from '#domain/person';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { closePerson } from '../close-person';
import { personIdParams } from '../path-params';
import { presentPerson } from '../present';

const answer = (person: Person): Reply => ({ body: { person: presentPerson(person) } });

/** DELETE /persons/{id} — closes the person for good: 200 `{ person }` with status `closed` and `closed_at`. */
export const handler = httpHandler({ params: personIdParams }, async ({ tenant, params, answers }) =>
  answer(await closePerson(tenant, params.id, answers?.of(answer))),
);
