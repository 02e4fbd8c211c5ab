import { httpHandler } from '#shared/http/handler';
import { presentPerson } from '../present';
import { createPersonBody } from '../request-schemas';
import { upsertPerson } from '../write-person';

/** PUT /persons — creates the person of the body's `customer_reference_id`, or replaces it. */
export const handler = httpHandler({ body: createPersonBody }, async ({ tenant, body }) => {
  const person = await upsertPerson(tenant, body);
  return { body: { person: presentPerson(person) } };
});
