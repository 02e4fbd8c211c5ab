import type {
  AccountCheck,
  BankAccountCheckRef,
  BankAccountRef,
  BankCheckKind,
  BankOutcome,
  BankProvider,
  OwnershipCheck,
  OwnershipClaims,
  PendingCheck,
  StatementCredit,
} from './bank-provider';
import { RAILS_CHECKS_OWNERSHIP, type RailsProviderName } from './providers';

/**
 * A provider on real rails behind the synchronous `bank()` port: its adapter needs secrets
 * that are read over the network, so it is opened on the first call (once per container)
 * and every call is handed to it. A failed opening is forgotten, so the next call tries
 * again rather than failing for the container's lifetime. Whether it checks ownership is
 * known from the provider's name, without opening it.
 */
export class DeferredBank implements BankProvider {
  readonly checksOwnership: boolean;
  private opened: Promise<BankProvider> | undefined;

  constructor(
    readonly name: RailsProviderName,
    private readonly open: () => Promise<BankProvider>,
  ) {
    this.checksOwnership = RAILS_CHECKS_OWNERSHIP[name];
  }

  async checkAccount(account: BankAccountCheckRef, attempt: number): Promise<AccountCheck | PendingCheck> {
    return (await this.provider()).checkAccount(account, attempt);
  }

  async checkDebits(account: BankAccountCheckRef, attempt: number): Promise<AccountCheck | PendingCheck> {
    return (await this.provider()).checkDebits(account, attempt);
  }

  async checkOwnership(account: BankAccountRef, claims: OwnershipClaims): Promise<OwnershipCheck> {
    return (await this.provider()).checkOwnership(account, claims);
  }

  async readNotice(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<BankOutcome[]> {
    const provider = await this.provider();
    if (!provider.readNotice) throw new Error(`the ${this.name} bank reads no notices`);
    return provider.readNotice(body, headers);
  }

  /** As the provider confirms it; one that cannot (none on rails today) leaves the silence a silence, as before. */
  async confirmSilence(kind: BankCheckKind, reference: string): Promise<'silent' | 'unsent' | Partial<AccountCheck>> {
    const provider = await this.provider();
    return provider.confirmSilence ? provider.confirmSilence(kind, reference) : 'silent';
  }

  async sendStatementCredit(account: BankAccountCheckRef, senderName: string | undefined): Promise<StatementCredit> {
    return (await this.provider()).sendStatementCredit(account, senderName);
  }

  private provider(): Promise<BankProvider> {
    this.opened ??= this.open().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }
}
