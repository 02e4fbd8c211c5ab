import { httpHandler } from '#shared/http/handler';
import { nextLink, pageRequestOf } from '#shared/http/pages';
import { presentPerson } from '../present';
import { listPersonsQuery } from '../query-schemas';
import { listPersons } from '../read-persons';

/** GET /persons — newest first; `index` is the page number, `size` the page length; a
 * full page links the next by cursor. */
export const handler = httpHandler({ query: listPersonsQuery }, async ({ tenant, query }) => {
  const page = await listPersons(
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
    pageRequestOf(query),
  );
  return { body: { persons: page.items.map(presentPerson) }, headers: nextLink('/persons', query, page.next) };
});
