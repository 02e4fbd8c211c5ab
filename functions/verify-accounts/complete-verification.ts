import { aggregateOwnership } from '#domain/ownership';
import { hashStatementCode } from '#domain/statement-code';
import {
  checksControl,
  checksOwnership,
  type MatchResult,
  ownershipSecretContext,
  type VerifyAccount,
} from '#domain/verify-account';
import type { OwnershipCheck, OwnershipClaims } from '#shared/bank/bank-provider';
import { bank } from '#shared/bank/index';
import { cipher } from '#shared/cipher/index';
import { retryOnConflict } from '#shared/db/retry';
import { type VerificationResult, verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import { digestOf } from '#shared/digest/index';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';

/**
 * The asynchronous half of a verification (docs/api.md#verify-accounts): ask the bank,
 * match ownership, send the statement-code credit; or, after
 * `POST …/debits`, ask the bank about debits again. Safe to run twice on the same
 * account: every step looks at what is already stored and does only what is missing. A
 * lost optimistic-locking race is retried at once on a fresh read.
 */
export function completeVerification(tenant: string, id: string, logger: Logger): Promise<void> {
  return retryOnConflict(() => completeOnce(tenant, id, logger), { attempts: 3, jitterMs: 0 });
}

async function completeOnce(tenant: string, id: string, logger: Logger): Promise<void> {
  const found = await verifyAccounts().getWithSecret(tenant, id);
  if (!found) {
    logger.warn('verify account not found; nothing to verify', { verify_account_id: id });
    return;
  }
  const { account } = found;
  if (account.verification_status === 'pending') {
    settled(await verify(account, found.ownershipSecret), logger);
  } else if (account.debit_status === 'pending') {
    await recheckDebits(account);
  }
}

async function verify(account: VerifyAccount, ownershipSecret: string | undefined): Promise<VerifyAccount> {
  const provider = bank();
  const check = await provider.checkAccount(account);
  const result: VerificationResult = { ...check };

  if (checksOwnership(account.type)) {
    const secret = ownershipSecret && (await cipher().decrypt(ownershipSecret, ownershipSecretContext(account)));
    const ownership = await provider.checkOwnership(account, ownershipClaims(account, secret));
    Object.assign(result, mergeOwnership(account, ownership));
  }

  if (checksControl(account.type)) {
    if (check.verification_status === 'valid') {
      const credit = await provider.sendStatementCredit(account, account.sender_name, account.id);
      result.statement_code_hash = hashStatementCode(credit.statementCode, digestOf('statement-code'));
      result.statement_code_sent_at = credit.sentAt.toISOString();
    } else {
      // No credit can reach an account that is not valid.
      result.control_status = 'canceled';
    }
  }
  return verifyAccounts().recordVerification(account, result, now());
}

/** The account's verification left `pending`: counted once, its outcome in the metrics line's metadata and the log. */
function settled(account: VerifyAccount, logger: Logger): void {
  metrics().count('VerificationSettled');
  metrics().metadata('verification_status', account.verification_status);
  logger.info('verification settled', {
    verify_account_id: account.id,
    verification_status: account.verification_status,
    ownership_status: account.ownership_status,
  });
}

/** A repeated debit check: only the debit status and its reason change. */
async function recheckDebits(account: VerifyAccount): Promise<VerifyAccount> {
  const check = await bank().checkAccount(account);
  return verifyAccounts().recordDebitCheck(
    account,
    { debit_status: check.debit_status, debit_status_reason: check.debit_status_reason },
    now(),
  );
}

function ownershipClaims(account: VerifyAccount, secret: string | undefined): OwnershipClaims {
  if (account.person) {
    const { first_name, last_name, phone_number } = account.person;
    return { person: { first_name, last_name, phone_number, ssn: account.has_ssn ? secret : undefined } };
  }
  if (account.business) {
    const { business_name, phone_number } = account.business;
    return { business: { business_name, phone_number, tax_id: account.has_tax_id ? secret : undefined } };
  }
  return {};
}

/** The stored person/business with the bank's per-field matches, and their aggregate. */
function mergeOwnership(account: VerifyAccount, check: OwnershipCheck) {
  const matches: MatchResult[] = Object.values(check.person ?? check.business ?? {}).filter(
    (m): m is MatchResult => m !== undefined,
  );
  return {
    person: account.person && check.person ? { ...account.person, ...definedOnly(check.person) } : account.person,
    business:
      account.business && check.business ? { ...account.business, ...definedOnly(check.business) } : account.business,
    ownership_status: aggregateOwnership(matches),
  };
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
