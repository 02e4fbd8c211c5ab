import { httpHandler } from '#shared/http/handler';
import { presentPerson } from '../present';
import { createPersonBody } from '../request-schemas';
import { createPerson } from '../write-person';

/** POST /persons — a new person, `created`; identification starts on its own when it has identity data. */
export const handler = httpHandler({ body: createPersonBody }, async ({ tenant, body, idempotency }) => {
  const person = await createPerson(tenant, body, idempotency);
  return { body: { person: presentPerson(person) } };
});
