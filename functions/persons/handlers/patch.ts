import type { Person } from '#domain/person';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { personIdParams } from '../path-params';
import { presentPerson } from '../present';
import { patchPersonBody } from '../request-schemas';
import { patchPerson } from '../write-person';

const answer = (person: Person): Reply => ({ body: { person: presentPerson(person) } });

/** PATCH /persons/{id} — the given fields change (`null` removes an optional one); identity changes re-identify. */
export const handler = httpHandler(
  { params: personIdParams, body: patchPersonBody },
  async ({ tenant, params, body, answers }) => answer(await patchPerson(tenant, params.id, body, answers?.of(answer))),
);
