import type {
  BankAccountCheckRef,
  BankAccountRef,
  BankCheckKind,
  BankProvider,
  OwnershipCheck,
  OwnershipClaims,
  PendingCheck,
  StatementCredit,
} from '#shared/bank/bank-provider';

/**
 * A bank on real rails as the verification flow sees it, without a provider: every check
 * is a prenotification sent and pending until the test tells a return or lets the window
 * end (`windowEndsAt`). Ownership is not offered (every field `not_found`), and the SSN or
 * tax id is not given to it unless a test says it checks ownership (`checksOwnership`); the
 * credit carries a fixed code. Keeps what was sent, with each call's attempt, to check
 * idempotency.
 */
export class RailsBank implements BankProvider {
  readonly name = 'rails-test';
  /** Whether it is given the SSN or tax id to check ownership with: not, as Increase, unless a test says so. */
  checksOwnership = false;
  readonly sent: { kind: BankCheckKind; id: string; attempt: number }[] = [];
  readonly credits: string[] = [];
  /** What each account's ownership check was asked, by the account's number. */
  readonly ownershipClaims = new Map<string, OwnershipClaims>();
  /** What the provider confirms at the end of a window with no return told. */
  silence: 'silent' | 'unsent' = 'silent';
  /** When the return window of the checks sent from now on ends. */
  windowEndsAt = new Date(Date.now() + 3 * 24 * 3600_000);

  async checkAccount(account: BankAccountCheckRef, attempt: number): Promise<PendingCheck> {
    this.sent.push({ kind: 'status', id: account.id, attempt }, { kind: 'debit', id: account.id, attempt });
    return this.pending({ status: `pre-status-${account.id}`, debit: `pre-debit-${account.id}` });
  }

  async checkDebits(account: BankAccountCheckRef, attempt: number): Promise<PendingCheck> {
    this.sent.push({ kind: 'debit', id: account.id, attempt });
    return this.pending({ debit: `pre-debit-${account.id}-${attempt}` });
  }

  async checkOwnership(account: BankAccountRef, claims: OwnershipClaims): Promise<OwnershipCheck> {
    this.ownershipClaims.set((account as BankAccountCheckRef).id, claims);
    return {
      ...(claims.person && { person: { first_name_match: 'not_found', last_name_match: 'not_found' } }),
      ...(claims.business && { business: { business_name_match: 'not_found' } }),
    };
  }

  async sendStatementCredit(account: BankAccountCheckRef): Promise<StatementCredit> {
    this.credits.push(account.id);
    return { statementCode: 'RL42', sentAt: new Date() };
  }

  async confirmSilence(): Promise<'silent' | 'unsent'> {
    return this.silence;
  }

  private pending(references: PendingCheck['references']): PendingCheck {
    return { pending: true, provider: this.name, references, windowEndsAt: this.windowEndsAt };
  }
}
