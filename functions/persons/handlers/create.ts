import type { Person } from '#domain/person';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { presentPerson } from '../present';
import { createPersonBody } from '../request-schemas';
import { createPerson } from '../write-person';

const answer = (person: Person): Reply => ({ body: { person: presentPerson(person) } });

/** POST /persons — a new person, `created`; identification starts on its own when it has identity data. */
export const handler = httpHandler({ body: createPersonBody }, async ({ tenant, body, idempotency, answers }) =>
  answer(await createPerson(tenant, body, idempotency, answers?.of(answer))),
);
