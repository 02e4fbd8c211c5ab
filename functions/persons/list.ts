import { pageWindow } from '#domain/pagination';
import { httpHandler } from '#shared/http/handler';
import { listPersons } from './persons';
import { presentPerson } from './present';
import { listPersonsQuery } from './schemas';

/** GET /persons — newest first; `index` is the page number, `size` the page length. */
export const handler = httpHandler({ query: listPersonsQuery }, async ({ tenant, query }) => {
  const persons = await listPersons(
    tenant,
    {
      id: query.id,
      customerReferenceId: query.customer_reference_id,
      startTime: query.start_time,
      endTime: query.end_time,
      status: query.status,
      firstName: query.first_name,
      lastName: query.last_name,
      accountNumber: query.account_number,
    },
    pageWindow(query.index, query.size),
  );
  return { body: { persons: persons.map(presentPerson) } };
});
