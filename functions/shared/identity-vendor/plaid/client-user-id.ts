import * as z from 'zod/mini';
import type { IdentityCheckRef } from '../identity-vendor';

// The `client_user_id` of an IDV, `<tenant>.<person id>.<identity revision>`: with
// `is_idempotent`, Plaid answers a second create for it with the first IDV, so a retried
// message never pays twice, nor does the automatic retry of the same identity data; a new
// identity revision (a PATCH) is a new check. It routes Plaid's notice back to its person
// without a lookup, and it is all Plaid learns of the service's own data beside what it
// checks: the tenant's name and the person's id, no PII (as Plaid asks of the field).
// Parsed strictly: an id of anything else, or made by anyone else, names no person.

const TENANT = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ID = new RegExp(`^(${TENANT})\\.(${UUID})\\.([1-9][0-9]{0,8})$`);

const clientUserId = z.string().check(z.maxLength(128), z.regex(ID));

export const clientUserIdOf = ({ tenant, id, identityRev }: IdentityCheckRef): string =>
  `${tenant}.${id}.${identityRev}`;

/** The person and identity revision an IDV's `client_user_id` names, or undefined when it is none of this service's. */
export function parseClientUserId(value: unknown): IdentityCheckRef | undefined {
  const parsed = clientUserId.safeParse(value);
  if (!parsed.success) return undefined;
  const [, tenant, id, rev] = ID.exec(parsed.data) as unknown as [string, string, string, string];
  return { tenant, id, identityRev: Number(rev) };
}
