import { statementCodeExpired } from '#domain/statement-code';
import {
  type AccountCheck,
  type BankCheckKind,
  BankNoticeIgnored,
  BankNoticeRefused,
  type BankOutcome,
  type CheckOutcome,
  type CreditOutcome,
} from '#shared/bank/bank-provider';
import { bank } from '#shared/bank/index';
import { ConfigError } from '#shared/config';
import { retryOnConflict } from '#shared/db/retry';
import { type BankWait, bankWaits, type DueWait, verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import { readSignedNotice } from '#shared/provider-notices';
import { actingFor } from '#shared/tenant-scope';
import { recordDebits, settled, settleVerification } from './complete-verification';

// What real rails say later (docs/api.md#real-rails): a prenotification's return, told by
// the provider's signed webhook, decides its check at once; no return by the end of the
// return window makes the account valid (and its debits, unless their own prenotification
// was returned). Each is applied once: a duplicated or replayed notice finds its check
// answered already and changes nothing.

/** A valid account's check, before a debit return says otherwise. */
const NO_RETURN: AccountCheck = { verification_status: 'valid', debit_status: 'valid' };

/**
 * A check whose prenotification the provider never sent: its silence proves nothing, so
 * the account is not taken for valid (a partner may verify it again).
 */
const UNSENT: Readonly<Record<BankCheckKind, Partial<AccountCheck>>> = {
  status: {
    verification_status: 'failed',
    status_reason: 'unexpected_error',
    debit_status: 'failed',
    debit_status_reason: 'unexpected_error',
  },
  debit: { debit_status: 'failed', debit_status_reason: 'unexpected_error' },
};

/**
 * A return the provider told of: kept on the check that sent its prenotification, and the
 * account settled when it decides it. Told again (the provider retries a notice whose first
 * delivery failed), a return already kept is settled again, which finishes what that
 * delivery left undone and changes nothing once done; a return about a prenotification no
 * pending check sent (an earlier check's, or one answered already) is left alone.
 */
export async function applyBankOutcome(outcome: BankOutcome, logger: Logger): Promise<void> {
  if (outcome.kind === 'credit') return cancelControl(outcome, logger);
  if (!outcome.returned) return;
  const marked = await bankWaits().markReturned(outcome, outcome.returned);
  if (!marked && !(await keptAlready(outcome))) {
    logger.info('bank return for no pending check: an earlier check’s, or answered already', {
      verify_account_id: outcome.id,
      kind: outcome.kind,
    });
    return;
  }
  await settleFromBank(outcome, { windowEnded: false }, logger);
}

/**
 * A statement credit that never reaches the statement: control is canceled (with an event),
 * once, while the code is still awaited; a code already proven, expired or canceled stays so.
 * A code expires 5 days after it was sent, not when the hourly expiry gets to it: a return
 * told in between changes nothing either, and the expiry cancels control as it would have.
 */
async function cancelControl(outcome: CreditOutcome, logger: Logger): Promise<void> {
  await retryOnConflict(
    async () => {
      const account = await verifyAccounts().get(outcome.tenant, outcome.id);
      const sentAt = account?.statement_code_sent_at;
      if (account?.control_status !== 'pending' || !sentAt || statementCodeExpired(sentAt, now())) {
        logger.info('statement credit returned for no awaited code', { verify_account_id: outcome.id });
        return;
      }
      await verifyAccounts().recordCreditReturn(account, outcome.returned, now());
      metrics().count('StatementCreditReturned');
      logger.info('statement credit returned: control canceled', {
        verify_account_id: outcome.id,
        verification_status: outcome.returned.verification_status ?? account.verification_status,
      });
    },
    { attempts: 3, jitterMs: 20 },
  );
}

/** Whether the check that sent this prenotification is still pending with its return kept. */
async function keptAlready(outcome: CheckOutcome): Promise<boolean> {
  const waits = await bankWaits().of(outcome.tenant, outcome.id);
  return waits.some((wait) => wait.kind === outcome.kind && wait.reference === outcome.reference && wait.returned);
}

/**
 * A notice the provider sent to its webhook route: read with the provider's signature
 * scheme (one it did not sign answers 401 `invalid_signature`, and nothing is applied),
 * then each outcome it tells applied once. A failure answers 500 and the provider sends
 * the notice again; what was applied already is not applied twice.
 */
export async function takeBankNotice(
  body: string,
  headers: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): Promise<number> {
  const provider = bank();
  const readNotice = provider.readNotice?.bind(provider);
  if (!readNotice) throw new ConfigError(`the ${provider.name} bank sends no notices`);
  const outcomes = await readSignedNotice(
    () => readNotice(body, headers),
    {
      refused: BankNoticeRefused,
      ignored: BankNoticeIgnored,
      metric: 'BankNoticeIgnored',
      signer: `the ${provider.name} bank`,
    },
    logger,
  );
  for (const outcome of outcomes) {
    const log = logger.child({ tenant: outcome.tenant, verify_account_id: outcome.id });
    await actingFor(outcome.tenant, () => applyBankOutcome(outcome, log));
  }
  logger.info('bank notice taken', { provider: provider.name, outcomes: outcomes.length });
  return outcomes.length;
}

/** Checks whose return window ended (the schedule): each account settled from what came back, if anything. */
export async function settleEndedWindows(cutoff: Date, logger: Logger): Promise<number> {
  const due = await bankWaits().endedBefore(cutoff);
  // The ended windows span tenants (one index); each account is settled acting for its own.
  for (const wait of due) await actingFor(wait.tenant, () => settleFromBank(wait, { windowEnded: true }, logger));
  return due.length;
}

/**
 * Settles the account of a pending check from its checks as stored: a status return
 * settles it at once (a closed or invalid account takes no debits either); a debit return
 * waits for the status; once the window ended, no return is a valid account.
 */
async function settleFromBank(wait: DueWait, { windowEnded }: { windowEnded: boolean }, logger: Logger) {
  await retryOnConflict(
    async () => {
      const [found, kept] = await Promise.all([
        verifyAccounts().getWithSecret(wait.tenant, wait.id),
        bankWaits().of(wait.tenant, wait.id),
      ]);
      const waits = windowEnded ? await confirmed(kept, logger) : kept;
      const status = waits.find((check) => check.kind === 'status');
      const debit = waits.find((check) => check.kind === 'debit');
      const answered = () =>
        bankWaits().clear(
          wait.tenant,
          wait.id,
          waits.map((check) => check.kind),
        );
      if (!found) return answered();
      const { account } = found;
      if (account.verification_status === 'pending' && status) {
        if (!status.returned && !windowEnded) return;
        const check: AccountCheck = status.returned
          ? { ...NO_RETURN, ...status.returned }
          : { ...NO_RETURN, ...debitsOf(debit?.returned) };
        settled(await settleVerification(account, found.ownershipSecret, check), logger);
        return answered();
      }
      if (account.verification_status !== 'pending' && account.debit_status === 'pending' && debit) {
        if (!debit.returned && !windowEnded) return;
        await recordDebits(account, { debit_status: 'valid', ...debitsOf(debit.returned) });
        return answered();
      }
      // Settled meanwhile (a repeated notice, a restart): nothing is waiting any more.
      if (account.verification_status !== 'pending' && account.debit_status !== 'pending') return answered();
    },
    { attempts: 3, jitterMs: 20 },
  );
}

/** What a debit prenotification's return says about debits alone. */
function debitsOf(returned: Partial<AccountCheck> | undefined): Partial<AccountCheck> {
  if (!returned?.debit_status) return {};
  return {
    debit_status: returned.debit_status,
    ...(returned.debit_status_reason && { debit_status_reason: returned.debit_status_reason }),
  };
}

/**
 * The checks of an ended window as the provider confirms them: a silence stays one, a
 * late return counts, and a prenotification never sent is not taken for a silence.
 */
async function confirmed(waits: readonly BankWait[], logger: Logger): Promise<BankWait[]> {
  const provider = bank();
  return Promise.all(
    waits.map(async (wait) => {
      if (wait.returned || wait.provider !== provider.name || !provider.confirmSilence) return wait;
      const answer = await provider.confirmSilence(wait.kind, wait.reference);
      if (answer === 'silent') return wait;
      if (answer === 'unsent') logger.error('prenotification never sent by the end of its window', { kind: wait.kind });
      return { ...wait, returned: answer === 'unsent' ? UNSENT[wait.kind] : answer };
    }),
  );
}
