import { statementCodeSentEmail } from '#domain/notifications';
import { statementCodeExpired } from '#domain/statement-code';
import type { VerifyAccount } from '#domain/verify-account';
import { retryOnConflict } from '#shared/db/retry';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import type { Logger } from '#shared/logger';
import { notifier } from '#shared/notify/index';
import { DisabledNotifier } from '#shared/notify/notifier';

/**
 * Emails the holder of an account whose statement code was sent (docs/api.md#verify-accounts),
 * at most once: only while the code is unanswered and unexpired and no email was recorded,
 * and the email is recorded on the account once sent. Safe to run twice on the same
 * account; a failed send throws, so the message is retried and, in the end, dead-lettered.
 */
export async function notifyHolder(tenant: string, id: string, logger: Logger): Promise<void> {
  const account = await verifyAccounts().get(tenant, id);
  if (!account) {
    logger.warn('verify account not found; nobody to email', { verify_account_id: id });
    return;
  }
  if (!needsNotification(account)) return;
  const channel = notifier();
  if (channel instanceof DisabledNotifier) {
    logger.info('no email sender configured; holder not emailed', { verify_account_id: id });
    return;
  }
  await channel.send(statementCodeSentEmail(account));
  // Recorded on a fresh read when another change won the race: the email is not sent again.
  let known: VerifyAccount | undefined = account;
  await retryOnConflict(
    async () => {
      const current = known ?? (await verifyAccounts().get(tenant, id));
      known = undefined;
      if (current && !current.statement_code_notified_at) await verifyAccounts().recordHolderNotified(current, now());
    },
    { attempts: 3, jitterMs: 0 },
  );
}

function needsNotification(account: VerifyAccount): account is VerifyAccount & { email: string } {
  return Boolean(
    account.email &&
      account.statement_code_sent_at &&
      !account.statement_code_notified_at &&
      account.control_status === 'pending' &&
      !statementCodeExpired(account.statement_code_sent_at, now()),
  );
}
