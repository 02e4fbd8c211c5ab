import type { ScreeningList } from '#domain/screening-match';

// A hit's id for operators, who act across tenants: the tenant, the person and the
// (list, entry) pair it names, as base64url of a JSON array. Opaque to callers, and parsed
// strictly, so an id sent can only ever name a hit key of one tenant's person
// (`T#<tenant>#P#<uuid>` / `HIT#<list>#<entry>`), never another kind of record.

export interface HitAddress {
  tenant: string;
  personId: string;
  list: ScreeningList;
  entryId: string;
}

const TENANT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A list's entry id (`SDN-306`, `ALERTS-alert-0001`, `local-<uuid>`): printable, no key separator. */
const ENTRY_ID = /^[\x21-\x22\x24-\x7e]{1,200}$/;
const LISTS: readonly string[] = ['sanctions', 'alerts'];
/** The longest id a valid address encodes to, with room to spare: longer is refused before decoding. */
const MAX_ID_CHARS = 512;

export const hitIdOf = (address: HitAddress): string =>
  Buffer.from(JSON.stringify([address.tenant, address.personId, address.list, address.entryId])).toString('base64url');

/** The hit an id names, or undefined when it is no hit id. */
export function parseHitId(id: unknown): HitAddress | undefined {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS || !/^[A-Za-z0-9_-]+$/.test(id)) {
    return undefined;
  }
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 4 || !parts.every((part) => typeof part === 'string')) return undefined;
  const [tenant, personId, list, entryId] = parts as [string, string, string, string];
  if (!TENANT.test(tenant) || !UUID.test(personId) || !LISTS.includes(list) || !ENTRY_ID.test(entryId)) {
    return undefined;
  }
  // Only the one spelling of an address is its id.
  const address = { tenant, personId, list: list as ScreeningList, entryId };
  return hitIdOf(address) === id ? address : undefined;
}
