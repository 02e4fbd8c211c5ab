import type { PageWindow } from '#domain/pagination';
import { decideControlSubmission } from '#domain/statement-code';
import type { VerifyAccount } from '#domain/verify-account';
import { documentClient, now } from '#shared/aws';
import { tableName } from '#shared/config';
import { type AccountListFilter, VerifyAccountRepository } from '#shared/db/verify-accounts';
import { ConflictError, NotFoundError, RateLimitError, ValidationError } from '#shared/errors';

/**
 * The Verify use cases that read and answer accounts: what the get, list and control
 * handlers call. Storage and clock come from the dependency registry, so the same code
 * runs in Lambda, locally and in tests. Starting a verification (which encrypts) is in
 * start-verification.ts, so only that function bundles the KMS client.
 */

const CONTROL_RETRIES = 5;

export const repository = () => new VerifyAccountRepository(documentClient(), tableName());

export async function getVerifyAccount(tenant: string, id: string): Promise<VerifyAccount> {
  const account = await repository().get(tenant, id);
  if (!account) throw new NotFoundError('unknown_id', 'no verify account has this id');
  return account;
}

export async function listVerifyAccounts(tenant: string, filter: AccountListFilter, page: PageWindow) {
  return repository().list(tenant, filter, page);
}

/**
 * A statement-code submission (DESIGN.md §4). The account may change under it (another
 * submission, the pipeline): the decision is then taken again on the fresh account, after
 * a short random pause so racing submissions spread out. A partner sees a 409 only if the
 * account keeps changing through every retry.
 */
export async function submitStatementCode(tenant: string, id: string, code: string): Promise<VerifyAccount> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyStatementCode(await getVerifyAccount(tenant, id), code);
    } catch (error) {
      const concurrent = error instanceof ConflictError && error.code === 'concurrent_update';
      if (!concurrent || attempt >= CONTROL_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

async function applyStatementCode(account: VerifyAccount, code: string): Promise<VerifyAccount> {
  const at = now();
  const decision = decideControlSubmission(account, code, at);
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
      return repository().updateControl(account, { control_status: 'valid' }, at);
    case 'incorrect': {
      await repository().updateControl(
        account,
        { control_attempts: decision.attempts, control_status: decision.cancels ? 'canceled' : undefined },
        at,
      );
      throw new ValidationError('incorrect_statement_code', 'the statement code is not correct', {
        attempts_remaining: decision.attemptsRemaining,
      });
    }
  }
}
