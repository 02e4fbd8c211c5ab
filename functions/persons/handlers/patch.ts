import { httpHandler } from '#shared/http/handler';
import { personIdParams } from '../path-params';
import { presentPerson } from '../present';
import { patchPersonBody } from '../request-schemas';
import { patchPerson } from '../write-person';

/** PATCH /persons/{id} — the given fields change (`null` removes an optional one); identity changes re-identify. */
export const handler = httpHandler(
  { params: personIdParams, body: patchPersonBody },
  async ({ tenant, params, body }) => {
    const person = await patchPerson(tenant, params.id, body);
    return { body: { person: presentPerson(person) } };
  },
);
