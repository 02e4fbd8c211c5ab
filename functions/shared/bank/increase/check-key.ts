import * as z from 'zod/mini';
import type { BankEntryKind } from '../bank-provider';

// The idempotency key of an entry, `<tenant>.<account id>.<kind>.<attempt>` (a status or
// debit prenotification, or the statement-code credit, whose attempt is always 1): it
// makes a repeated request send nothing twice, and routes the provider's later notice of a
// return back to its account. It is all Increase learns of the service's data: the
// tenant's name and the verify account's id (docs/threat-model.md). Parsed strictly: a key
// of anything else, or written by anyone else, names no account.

export interface CheckAddress {
  readonly tenant: string;
  readonly id: string;
  readonly kind: BankEntryKind;
  readonly attempt: number;
}

const TENANT = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^(${TENANT})\\.(${UUID})\\.(status|debit|credit)\\.([1-9][0-9]{0,8})$`);

const checkKey = z.string().check(z.maxLength(200), z.regex(KEY));

export const checkKeyOf = ({ tenant, id, kind, attempt }: CheckAddress): string => `${tenant}.${id}.${kind}.${attempt}`;

/** The check a key names, or undefined when it is no key of this service's. */
export function parseCheckKey(key: unknown): CheckAddress | undefined {
  const parsed = checkKey.safeParse(key);
  if (!parsed.success) return undefined;
  const [, tenant, id, kind, attempt] = KEY.exec(parsed.data) as unknown as [
    string,
    string,
    string,
    BankEntryKind,
    string,
  ];
  return { tenant, id, kind, attempt: Number(attempt) };
}
