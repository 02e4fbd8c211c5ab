import * as z from 'zod/mini';
import type { BankCheckKind } from '../bank-provider';

// The idempotency key of a prenotification, `<tenant>.<account id>.<kind>.<attempt>`: it
// makes a repeated request send nothing twice, and routes the provider's later notice of a
// return back to its account. It is all Increase learns of the service's data: the
// tenant's name and the verify account's id (docs/threat-model.md). Parsed strictly: a key
// of anything else, or written by anyone else, names no account.

export interface CheckAddress {
  readonly tenant: string;
  readonly id: string;
  readonly kind: BankCheckKind;
  readonly attempt: number;
}

const TENANT = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^(${TENANT})\\.(${UUID})\\.(status|debit)\\.([1-9][0-9]{0,8})$`);

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
    BankCheckKind,
    string,
  ];
  return { tenant, id, kind, attempt: Number(attempt) };
}
