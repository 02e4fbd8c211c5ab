import { aggregateOwnership } from '#domain/ownership';
import { hashStatementCode } from '#domain/statement-code';
import {
  checksControl,
  checksOwnership,
  type MatchResult,
  ownershipSecretContext,
  type VerifyAccount,
} from '#domain/verify-account';
import {
  type AccountCheck,
  IDENTIFIER_WITHHELD,
  type OwnershipCheck,
  type OwnershipClaims,
  type PendingCheck,
} from '#shared/bank/bank-provider';
import { bank } from '#shared/bank/index';
import { cipher } from '#shared/cipher/index';
import { retryOnConflict } from '#shared/db/retry';
import { bankWaits, type VerificationResult, verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import { digestOf } from '#shared/digest/index';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';

/**
 * The asynchronous half of a verification (docs/api.md#verify-accounts): ask the bank,
 * match ownership, send the statement-code credit; or, after
 * `POST …/debits`, ask the bank about debits again. A bank on real rails answers later:
 * its pending check is kept (`bankWaits`) and ./bank-outcome.ts settles the account when
 * the return comes or the return window ends. Safe to run twice on the same
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
    // One status check per account: a repeated run asks the provider again with the same key.
    const answer = await bank().checkAccount(account, 1);
    if (isPending(answer)) return awaitBank(account, answer, logger);
    settled(await settleVerification(account, found.ownershipSecret, answer), logger);
  } else if (account.debit_status === 'pending') {
    // Each `POST …/debits` moves the account's version: the version names the attempt.
    const answer = await bank().checkDebits(account, account.version);
    if (isPending(answer)) return awaitBank(account, answer, logger);
    await recordDebits(account, answer);
  }
}

const isPending = (answer: AccountCheck | PendingCheck): answer is PendingCheck => 'pending' in answer;

/** A check sent over the rails: kept until its return comes or its window ends; the account stays pending. */
async function awaitBank(account: VerifyAccount, pending: PendingCheck, logger: Logger): Promise<void> {
  await bankWaits().put(account, pending);
  logger.info('bank check sent; awaiting its return window', {
    verify_account_id: account.id,
    provider: pending.provider,
    checks: Object.keys(pending.references),
    window_ends_at: pending.windowEndsAt.toISOString(),
  });
}

/**
 * The account settled from the bank's check: ownership matched, the statement-code credit
 * sent to a valid control account, all stored in one write.
 */
export async function settleVerification(
  account: VerifyAccount,
  ownershipSecret: string | undefined,
  check: AccountCheck,
): Promise<VerifyAccount> {
  const provider = bank();
  const result: VerificationResult = { ...check };

  if (checksOwnership(account.type)) {
    // Opened only for a bank that matches it: on rails that do not (Increase), the function
    // settling needs no decrypt grant for it, and the bank learns only that one was supplied.
    const secret =
      ownershipSecret &&
      (provider.checksOwnership
        ? await cipher().decrypt(ownershipSecret, ownershipSecretContext(account))
        : IDENTIFIER_WITHHELD);
    const ownership = await provider.checkOwnership(account, ownershipClaims(account, secret));
    Object.assign(result, mergeOwnership(account, ownership));
  }

  if (checksControl(account.type)) {
    if (check.verification_status === 'valid') {
      const credit = await provider.sendStatementCredit(account, account.sender_name);
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
export function settled(account: VerifyAccount, logger: Logger): void {
  metrics().count('VerificationSettled');
  metrics().metadata('verification_status', account.verification_status);
  logger.info('verification settled', {
    verify_account_id: account.id,
    verification_status: account.verification_status,
    ownership_status: account.ownership_status,
  });
}

/** A repeated debit check's answer: only the debit status and its reason change. */
export function recordDebits(
  account: VerifyAccount,
  check: Pick<AccountCheck, 'debit_status' | 'debit_status_reason'>,
): Promise<VerifyAccount> {
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
