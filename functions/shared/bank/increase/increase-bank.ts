import Increase, { IdempotencyKeyAlreadyUsedError, NotFoundError } from 'increase';
import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import * as z from 'zod/mini';
import { returnWindowEnd } from '#domain/ach-returns';
import { achText } from '#domain/ach-text';
import { newStatementCode } from '#domain/statement-code';
import {
  type AccountCheck,
  type BankAccountCheckRef,
  type BankAccountRef,
  type BankCheckKind,
  BankNoticeIgnored,
  BankNoticeRefused,
  type BankOutcome,
  type BankProvider,
  type OwnershipCheck,
  type OwnershipClaims,
  type PendingCheck,
  type StatementCredit,
} from '../bank-provider';
import { missingBankSecret } from '../rails-secrets';
import { checkKeyOf } from './check-key';
import {
  CODE_IN_COMPANY_NAME,
  DEFAULT_STATEMENT_NAME,
  entryClassOf,
  INDICATOR,
  MICRO_ENTRY_DESCRIPTION,
  receiverName,
  STATEMENT_NAME_MAX,
} from './entry-fields';
import { creditOutcomesOf, outcomesOf, prenotificationAddress } from './entry-outcomes';
import type { IncreaseBankOptions } from './options';
import { failure, IncreaseRequestFailed } from './request-failed';

export type { IncreaseBankOptions };

// Real rails through Increase (docs/decisions.md#real-rails): the account's status and its
// debits are asked with a credit and a debit prenotification, their returns told by
// Increase's signed webhook (Standard Webhooks, 5 minutes' tolerance); the statement code
// rides a one-cent credit. Every request carries an idempotency key, and the SDK retries
// 408/409/429/5xx with the same key, so nothing is sent twice. Errors never carry what was
// sent (account numbers) nor what Increase answered: only the operation, the status and
// Increase's error type. The SDK's own logging is off, whatever INCREASE_LOG says.

/**
 * The event categories the adapter reads: the webhook subscription names these and no
 * other (docs/deploy.md#real-rails-increase); any other is ignored.
 */
export const NOTICE_CATEGORIES = ['ach_prenotification.updated', 'ach_transfer.updated'] as const;

const event = z.object({ category: z.string(), associated_object_id: z.string().check(z.minLength(1)) });

export class IncreaseBank implements BankProvider {
  readonly name = 'increase';
  readonly checksOwnership = false;
  private readonly client: Increase;
  private readonly accountId: string;
  private readonly webhookSecret: string | undefined;
  private readonly statementName: string;

  constructor({
    apiKey,
    webhookSecret,
    accountId,
    baseURL,
    environment,
    maxRetries,
    statementName,
  }: IncreaseBankOptions) {
    // `baseURL: null`, `webhookSecret: null` and an explicit log level keep the SDK from reading INCREASE_* variables.
    this.client = new Increase({
      apiKey,
      webhookSecret: webhookSecret ?? null,
      ...(baseURL ? { baseURL } : { baseURL: null, environment: environment ?? 'production' }),
      ...(maxRetries !== undefined && { maxRetries }),
      logLevel: 'off',
    });
    this.accountId = accountId;
    this.webhookSecret = webhookSecret;
    this.statementName = achText(statementName ?? DEFAULT_STATEMENT_NAME, STATEMENT_NAME_MAX) || DEFAULT_STATEMENT_NAME;
  }

  /** A credit prenotification (the status) and a debit one: pending until their window ends. */
  async checkAccount(account: BankAccountCheckRef, attempt: number): Promise<PendingCheck> {
    const [status, debit] = await Promise.all([
      this.prenote(account, 'status', attempt),
      this.prenote(account, 'debit', attempt),
    ]);
    return this.pending([status, debit], { status: status.id, debit: debit.id });
  }

  async checkDebits(account: BankAccountCheckRef, attempt: number): Promise<PendingCheck> {
    const debit = await this.prenote(account, 'debit', attempt);
    return this.pending([debit], { debit: debit.id });
  }

  /** ACH carries no ownership: every supplied field is `not_found`. */
  async checkOwnership(_account: BankAccountRef, claims: OwnershipClaims): Promise<OwnershipCheck> {
    const notFound = (fields: object) =>
      Object.fromEntries(
        Object.entries(fields)
          .filter(([, value]) => value !== undefined)
          .map(([field]) => [`${field}_match`, 'not_found']),
      );
    return {
      ...(claims.person && { person: notFound(claims.person) as Required<OwnershipCheck>['person'] }),
      ...(claims.business && { business: notFound(claims.business) as Required<OwnershipCheck>['business'] }),
    };
  }

  /**
   * One cent to the account, a Micro-Entry: `ACCTVERIFY` in the entry description, the code
   * in the company name, beside the sender's name (or the deployment's), which statements
   * show; in the entry class of the account's prenotifications. The code is random, so a
   * repeated call sends another body under the same key: Increase answers the first
   * transfer (or 409 naming it), whose code is read back and answered.
   */
  async sendStatementCredit(account: BankAccountCheckRef, senderName: string | undefined): Promise<StatementCredit> {
    const name = achText(senderName ?? '', STATEMENT_NAME_MAX) || this.statementName;
    const transfer = await this.createOnce(
      'sending the statement credit',
      () =>
        this.client.achTransfers.create(
          {
            account_id: this.accountId,
            amount: 1,
            account_number: account.account_number,
            routing_number: account.routing_number,
            statement_descriptor: 'Account verification credit',
            company_entry_description: MICRO_ENTRY_DESCRIPTION,
            company_name: `${name} ${newStatementCode()}`,
            ...receiverName(account),
            ...entryClassOf(account),
          },
          { idempotencyKey: checkKeyOf({ tenant: account.tenant, id: account.id, kind: 'credit', attempt: 1 }) },
        ),
      (id) => this.client.achTransfers.retrieve(id),
    );
    const code = CODE_IN_COMPANY_NAME.exec(transfer.company_name ?? '')?.[1];
    if (!code) throw new IncreaseRequestFailed('reading the statement code back', undefined, 'unexpected_company_name');
    return { statementCode: code, sentAt: new Date(transfer.created_at) };
  }

  /**
   * Increase's webhook: signature and timestamp checked (else `BankNoticeRefused`); for a
   * prenotification this adapter sent, now returned, what its return code sets.
   */
  async readNotice(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<BankOutcome[]> {
    const parsed = event.safeParse(this.unwrap(body, headers));
    if (!parsed.success) throw new BankNoticeIgnored('unused_category');
    const id = parsed.data.associated_object_id;
    switch (parsed.data.category) {
      case 'ach_prenotification.updated': {
        const prenote = await this.refetch('reading a prenotification', () =>
          this.client.achPrenotifications.retrieve(id),
        );
        if (!prenotificationAddress(prenote, this.accountId)) throw new BankNoticeIgnored('not_ours');
        return outcomesOf(prenote, this.accountId);
      }
      case 'ach_transfer.updated': {
        const transfer = await this.refetch('reading a transfer', () => this.client.achTransfers.retrieve(id));
        return creditOutcomesOf(transfer, this.accountId);
      }
      default:
        throw new BankNoticeIgnored('unused_category');
    }
  }

  /** The object a notice is about, read again by its id: one Increase does not find is none of the service's. */
  private async refetch<T>(operation: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof NotFoundError) throw new BankNoticeIgnored('unknown_object');
      throw failure(operation, error);
    }
  }

  /** At the end of a return window: submitted and not returned is a silence; held by Increase, never sent. */
  async confirmSilence(kind: BankCheckKind, reference: string): Promise<'silent' | 'unsent' | Partial<AccountCheck>> {
    const prenote = await this.call('reading a prenotification', () =>
      this.client.achPrenotifications.retrieve(reference),
    );
    const [returned] = outcomesOf(prenote, this.accountId);
    if (returned?.kind === kind && returned.returned) return returned.returned;
    return prenote.status === 'submitted' ? 'silent' : 'unsent';
  }

  private unwrap(body: string, headers: Readonly<Record<string, string | undefined>>): unknown {
    const key = this.webhookSecret ?? missingBankSecret('webhookSecret');
    const present = Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    try {
      return this.client.events.unwrap(body, { headers: present, key });
    } catch (error) {
      // The verifier's messages name the check that failed (signature, timestamp), never the secret.
      throw new BankNoticeRefused(`not a notice from Increase: ${(error as Error).message}`);
    }
  }

  private prenote(account: BankAccountCheckRef, kind: BankCheckKind, attempt: number): Promise<ACHPrenotification> {
    return this.createOnce(
      `sending a ${kind} prenotification`,
      () =>
        this.client.achPrenotifications.create(
          {
            account_id: this.accountId,
            account_number: account.account_number,
            routing_number: account.routing_number,
            credit_debit_indicator: INDICATOR[kind],
            standard_entry_class_code: entryClassOf(account).standard_entry_class_code,
            ...receiverName(account),
          },
          { idempotencyKey: checkKeyOf({ tenant: account.tenant, id: account.id, kind, attempt }) },
        ),
      (id) => this.client.achPrenotifications.retrieve(id),
    );
  }

  private pending(sent: readonly ACHPrenotification[], references: PendingCheck['references']): PendingCheck {
    // Increase's own creation time: a repeated call answers the same window.
    const last = Math.max(...sent.map((prenote) => Date.parse(prenote.created_at)));
    return { pending: true, provider: this.name, references, windowEndsAt: returnWindowEnd(new Date(last)) };
  }

  /** A create that, refused as a reuse of its key with another body, answers the object the key made. */
  private async createOnce<T>(operation: string, create: () => Promise<T>, retrieve: (id: string) => Promise<T>) {
    try {
      return await create();
    } catch (error) {
      if (error instanceof IdempotencyKeyAlreadyUsedError && error.resource_id) {
        return this.call(operation, () => retrieve(error.resource_id));
      }
      throw failure(operation, error);
    }
  }

  private async call<T>(operation: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw failure(operation, error);
    }
  }
}
