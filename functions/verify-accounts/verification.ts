import { statementCodeSentEmail } from '#domain/notifications';
import { aggregateOwnership } from '#domain/ownership';
import { hashStatementCode, statementCodeExpired } from '#domain/statement-code';
import {
  checksControl,
  checksOwnership,
  type MatchResult,
  ownershipSecretContext,
  type VerifyAccount,
} from '#domain/verify-account';
import { now } from '#shared/aws';
import type { OwnershipCheck, OwnershipClaims } from '#shared/bank/bank-provider';
import { bank } from '#shared/bank/index';
import { cipher } from '#shared/cipher/index';
import type { VerifyAccountRepository } from '#shared/db/verify-accounts';
import { ConflictError } from '#shared/errors';
import type { Logger } from '#shared/logger';
import { notifier } from '#shared/notify/index';
import { DisabledNotifier } from '#shared/notify/notifier';
import { repository } from './service';

/**
 * The asynchronous half of a verification (DESIGN.md §4): ask the bank, match ownership,
 * send the statement-code credit, tell the holder. Safe to run twice on the same account:
 * every step looks at what is already stored and does only what is missing.
 */
const RETRIES_ON_CONFLICT = 3;

export async function completeVerification(tenant: string, id: string, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await completeOnce(tenant, id, logger);
    } catch (error) {
      const concurrent = error instanceof ConflictError && error.code === 'concurrent_update';
      if (!concurrent || attempt >= RETRIES_ON_CONFLICT) throw error;
    }
  }
}

async function completeOnce(tenant: string, id: string, logger: Logger): Promise<void> {
  const found = await repository().getWithSecret(tenant, id);
  if (!found) {
    logger.warn('verify account not found; nothing to verify', { verify_account_id: id });
    return;
  }
  let account = found.account;
  if (account.verification_status === 'pending') {
    account = await verify(account, found.ownershipSecret);
  }
  if (needsNotification(account)) {
    await notifyHolder(account, logger);
  }
}

async function verify(account: VerifyAccount, ownershipSecret: string | undefined): Promise<VerifyAccount> {
  const provider = bank();
  const check = await provider.checkAccount(account);
  const result: Parameters<VerifyAccountRepository['recordVerification']>[1] = { ...check };

  if (checksOwnership(account.type)) {
    const secret = ownershipSecret && (await cipher().decrypt(ownershipSecret, ownershipSecretContext(account)));
    const ownership = await provider.checkOwnership(account, ownershipClaims(account, secret));
    Object.assign(result, mergeOwnership(account, ownership));
  }

  if (checksControl(account.type)) {
    if (check.verification_status === 'valid') {
      const credit = await provider.sendStatementCredit(account, account.sender_name, account.id);
      result.statement_code_hash = hashStatementCode(credit.statementCode);
      result.statement_code_sent_at = credit.sentAt.toISOString();
    } else {
      // No credit can reach an account that is not valid.
      result.control_status = 'canceled';
    }
  }
  return repository().recordVerification(account, result, now());
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

function needsNotification(account: VerifyAccount): account is VerifyAccount & { email: string } {
  return Boolean(
    account.email &&
      account.statement_code_sent_at &&
      !account.statement_code_notified_at &&
      account.control_status === 'pending' &&
      !statementCodeExpired(account.statement_code_sent_at, now()),
  );
}

async function notifyHolder(account: VerifyAccount & { email: string }, logger: Logger): Promise<void> {
  const channel = notifier();
  if (channel instanceof DisabledNotifier) {
    logger.info('no email sender configured; holder not emailed', { verify_account_id: account.id });
    return;
  }
  await channel.send(statementCodeSentEmail(account));
  await repository().recordHolderNotified(account, now());
}
