import * as z from 'zod/mini';
import { HIT_STATUSES } from '#domain/screening-review';
import { documented } from '#shared/input-schemas';
import { idFilter, once } from '#shared/list-filters';
import { listQuery } from '#shared/list-query';

// The query of `GET /screening/hits` (docs/api.md#hits-to-review), apart from the decision's
// body (request-schemas.ts) so that deciding a hit bundles no list filters.

const status = documented(
  z.pipe(once(), z.enum(HIT_STATUSES, { error: `must be one of ${HIT_STATUSES.join(', ')}` })),
  { description: 'The hits in this review status (`open` unless a person is named: then every status).' },
);

/** A tenant name, as the hit's person belongs to one. */
const tenant = z.pipe(
  once(),
  z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a tenant name: 1–64 letters, digits, - or _')),
);

/** `tenant` and `person_id` name one person: both or neither. */
const onePerson = z.superRefine((q: { tenant?: string; person_id?: string }, ctx) => {
  const message = 'tenant and person_id name one person together: give both, or neither';
  if (q.tenant === undefined && q.person_id !== undefined)
    ctx.addIssue({ code: 'custom', path: ['tenant'], message, params: { error_code: 'missing_tenant' } });
  if (q.person_id === undefined && q.tenant !== undefined)
    ctx.addIssue({ code: 'custom', path: ['person_id'], message, params: { error_code: 'missing_person_id' } });
});

export const listHitsQuery = listQuery({
  status: z.optional(status),
  tenant: z.optional(tenant),
  person_id: z.optional(idFilter('invalid_person_id', 'must be a person id (a UUID)')),
}).check(onePerson);
export type ListHitsQuery = z.output<typeof listHitsQuery>;
