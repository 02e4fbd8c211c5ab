import { httpHandler } from '#shared/http/handler';
import { closePerson } from '../close-person';
import { personIdParams } from '../path-params';
import { presentPerson } from '../present';

/** DELETE /persons/{id} — closes the person for good: 200 `{ person }` with status `closed` and `closed_at`. */
export const handler = httpHandler({ params: personIdParams }, async ({ tenant, params }) => {
  const person = await closePerson(tenant, params.id);
  return { body: { person: presentPerson(person) } };
});
