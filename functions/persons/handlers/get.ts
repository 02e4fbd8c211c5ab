import { httpHandler } from '#shared/http/handler';
import { personIdParams } from '../path-params';
import { presentPerson } from '../present';
import { getPerson } from '../read-persons';

/** GET /persons/{id} — another tenant's id answers 404 `unknown_id_person` like an unknown one. */
export const handler = httpHandler({ params: personIdParams }, async ({ tenant, params }) => {
  const person = await getPerson(tenant, params.id);
  return { body: { person: presentPerson(person) } };
});
