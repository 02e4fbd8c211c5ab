import type { VerifyAccount } from '#domain/verify-account';

/** Attributes that exist only in storage; `toAccount` strips them. */
const STORAGE_ONLY = [
  'pk',
  'sk',
  'entity',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'ownership_secret',
] as const;

/** The domain's account from a stored item (or a stream image). */
export function toAccount(item: Record<string, unknown>): VerifyAccount {
  const account = { ...item };
  for (const attribute of STORAGE_ONLY) delete account[attribute];
  return account as unknown as VerifyAccount;
}
