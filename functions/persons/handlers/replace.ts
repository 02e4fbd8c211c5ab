import { httpHandler } from '#shared/http/handler';
import { personIdParams } from '../path-params';
import { presentPerson } from '../present';
import { createPersonBody } from '../request-schemas';
import { replacePerson } from '../write-person';

/** PUT /persons/{id} — the person becomes exactly the body; identity changes re-identify. */
export const handler = httpHandler(
  { params: personIdParams, body: createPersonBody },
  async ({ tenant, params, body }) => {
    const person = await replacePerson(tenant, params.id, body);
    return { body: { person: presentPerson(person) } };
  },
);
