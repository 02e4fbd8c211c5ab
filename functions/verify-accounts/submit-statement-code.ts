import { decideControlSubmission } from '#domain/statement-code';
import type { VerifyAccount } from '#domain/verify-account';
import type { KeepAnswer, KeptAnswer } from '#shared/db/idempotency/kept-answer';
import { retryOnConflict } from '#shared/db/retry';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import { digestOf } from '#shared/digest/index';
import { type AppError, RateLimitError, ValidationError } from '#shared/errors';
import { getVerifyAccount } from './read-verify-accounts';

/**
 * The answers of a submission kept with its write (HandlerRequest.answers): of the account a
 * right code leaves, or of the error a wrong one answers, so a retry of a wrong code replays
 * its answer rather than use up another attempt.
 */
export interface SubmissionAnswers {
  readonly account: KeepAnswer<VerifyAccount>;
  readonly error: (error: AppError) => KeptAnswer;
}

/**
 * A statement-code submission (docs/api.md#control). The account may change under it
 * (another submission, the pipeline): the decision is then taken again on the fresh
 * account, after a short random pause so racing submissions spread out. A partner sees a
 * 409 only if the account keeps changing through every retry.
 */
export function submitStatementCode(
  tenant: string,
  id: string,
  code: string,
  answers?: SubmissionAnswers,
): Promise<VerifyAccount> {
  return retryOnConflict(async () => applyStatementCode(await getVerifyAccount(tenant, id), code, answers), {
    attempts: 5,
    jitterMs: 20,
  });
}

async function applyStatementCode(
  account: VerifyAccount,
  code: string,
  answers: SubmissionAnswers | undefined,
): Promise<VerifyAccount> {
  const at = now();
  const decision = decideControlSubmission(account, code, at, digestOf('statement-code'));
  switch (decision.kind) {
    case 'not_requested':
      throw new ValidationError('control_not_requested', `type ${account.type} does not verify control`);
    case 'already_valid':
      return account;
    case 'too_many_attempts':
      throw new RateLimitError('too_many_attempts', 'three wrong statement codes were submitted; control is canceled');
    case 'canceled':
      throw new ValidationError('control_canceled', 'control verification of this account was canceled');
    case 'expired':
      throw new ValidationError(
        'control_canceled',
        'the statement code expired 5 days after it was sent; control is canceled',
      );
    case 'not_sent':
      throw new ValidationError('statement_code_not_sent', 'the statement code has not been sent to the account yet');
    case 'correct':
      return verifyAccounts().updateControl(account, { control_status: 'valid' }, at, answers?.account);
    case 'incorrect': {
      // Orum's ControlErrorResponse has `attempts_remaining` at the top level of the body.
      const incorrect = new ValidationError(
        'incorrect_statement_code',
        'the statement code is not correct',
        { attempts_remaining: decision.attemptsRemaining },
        { attempts_remaining: decision.attemptsRemaining },
      );
      await verifyAccounts().updateControl(
        account,
        { control_attempts: decision.attempts, ...(decision.cancels && { control_status: 'canceled' as const }) },
        at,
        answers && (() => answers.error(incorrect)),
      );
      throw incorrect;
    }
  }
}
