import { httpHandler } from '#shared/http/handler';
import { patchPerson } from './change-person';
import { personIdParams } from './params';
import { presentPerson } from './present';
import { patchPersonBody } from './schemas';

/** PATCH /persons/{id} — the given fields change (`null` removes an optional one); identity changes re-identify. */
export const handler = httpHandler(
  { params: personIdParams, body: patchPersonBody },
  async ({ tenant, params, body }) => {
    const person = await patchPerson(tenant, params.id, body);
    return { body: { person: presentPerson(person) } };
  },
);
