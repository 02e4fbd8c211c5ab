import Increase, { APIError, IdempotencyKeyAlreadyUsedError } from 'increase';
import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import * as z from 'zod/mini';
import { debitReturnOf, returnWindowEnd, statusReturnOf } from '#domain/ach-returns';
import { newStatementCode } from '#domain/statement-code';
import {
  type AccountCheck,
  type BankAccountCheckRef,
  type BankAccountRef,
  type BankCheckKind,
  BankNoticeRefused,
  type BankOutcome,
  type BankProvider,
  type OwnershipCheck,
  type OwnershipClaims,
  type PendingCheck,
  type StatementCredit,
} from '../bank-provider';
import { missingBankSecret } from '../rails-secrets';
import { checkKeyOf, parseCheckKey } from './check-key';
import { NACHA_CODE_OF } from './return-codes';

// Real rails through Increase (docs/decisions.md#real-rails): the account's status and its
// debits are asked with a credit and a debit prenotification, their returns told by
// Increase's signed webhook (Standard Webhooks, 5 minutes' tolerance); the statement code
// rides a one-cent credit. Every request carries an idempotency key, and the SDK retries
// 408/409/429/5xx with the same key, so nothing is sent twice. Errors never carry what was
// sent (account numbers) nor what Increase answered: only the operation, the status and
// Increase's error type. The SDK's own logging is off, whatever INCREASE_LOG says.

export interface IncreaseBankOptions {
  apiKey: string;
  /** The webhook secret as Increase shows it; only a function that reads notices is given it (`readNotice` needs it). */
  webhookSecret?: string;
  /** The Increase account the entries are sent from. */
  accountId: string;
  /** A stand-in for Increase's API (tests); when given, `environment` is ignored. */
  baseURL?: string;
  /** @default 'production' */
  environment?: 'production' | 'sandbox';
  /** Retries of a request that failed with 408, 409, 429, 5xx or no answer. @default 2 */
  maxRetries?: number;
}

/** A request to Increase that failed: the operation, the status and Increase's error type, nothing sent or answered. */
export class IncreaseRequestFailed extends Error {
  override readonly name = 'IncreaseRequestFailed';
  constructor(
    operation: string,
    readonly status: number | undefined,
    readonly type: string | undefined,
  ) {
    super(`Increase: ${operation} failed (${status ?? 'no answer'}${type ? ` ${type}` : ''})`);
  }
}

/** The statement code in the credit's entry description (Nacha: 10 characters), read back from the transfer. */
const codeDescription = (code: string) => `CODE ${code}`;
const CODE_DESCRIPTION = /^CODE ([A-Z0-9]{4})$/;
/** Nacha's widths of the receiver's and the originator's names. */
const INDIVIDUAL_NAME_MAX = 22;
const COMPANY_NAME_MAX = 16;

const event = z.object({ category: z.string(), associated_object_id: z.string().check(z.minLength(1)) });
const INDICATOR: Record<BankCheckKind, 'credit' | 'debit'> = { status: 'credit', debit: 'debit' };

export class IncreaseBank implements BankProvider {
  readonly name = 'increase';
  readonly checksOwnership = false;
  private readonly client: Increase;
  private readonly accountId: string;
  private readonly webhookSecret: string | undefined;

  constructor({ apiKey, webhookSecret, accountId, baseURL, environment, maxRetries }: IncreaseBankOptions) {
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
   * One cent to the account, the code in its entry description. The code is random, so a
   * repeated call sends another body under the same key: Increase answers the first
   * transfer (or 409 naming it), whose code is read back and answered.
   */
  async sendStatementCredit(
    account: BankAccountRef,
    senderName: string | undefined,
    idempotencyKey: string,
  ): Promise<StatementCredit> {
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
            company_entry_description: codeDescription(newStatementCode()),
            individual_name: account.account_holder_name.slice(0, INDIVIDUAL_NAME_MAX),
            ...(senderName && { company_name: senderName.slice(0, COMPANY_NAME_MAX) }),
          },
          { idempotencyKey: `${idempotencyKey}.statement-credit` },
        ),
      (id) => this.client.achTransfers.retrieve(id),
    );
    const code = CODE_DESCRIPTION.exec(transfer.company_entry_description ?? '')?.[1];
    if (!code) throw new IncreaseRequestFailed('reading the statement code back', undefined, 'unexpected_description');
    return { statementCode: code, sentAt: new Date(transfer.created_at) };
  }

  /**
   * Increase's webhook: signature and timestamp checked (else `BankNoticeRefused`); for a
   * prenotification this adapter sent, now returned, what its return code sets.
   */
  async readNotice(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<BankOutcome[]> {
    const parsed = event.safeParse(this.unwrap(body, headers));
    if (!parsed.success || parsed.data.category !== 'ach_prenotification.updated') return [];
    const prenote = await this.call('reading a prenotification', () =>
      this.client.achPrenotifications.retrieve(parsed.data.associated_object_id),
    );
    return outcomesOf(prenote, this.accountId);
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
            // NACHA's class for the receiver: a business's account takes corporate entries, a
            // person's consumer ones (a CCD debit to a consumer account may come back R05).
            standard_entry_class_code: account.business
              ? 'corporate_credit_or_debit'
              : 'prearranged_payments_and_deposit',
            individual_name: account.account_holder_name.slice(0, INDIVIDUAL_NAME_MAX),
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

function failure(operation: string, error: unknown): IncreaseRequestFailed {
  if (!(error instanceof APIError)) return new IncreaseRequestFailed(operation, undefined, undefined);
  const type = (error.error as { type?: unknown } | undefined)?.type;
  return new IncreaseRequestFailed(operation, error.status, typeof type === 'string' ? type : undefined);
}

/** What a prenotification this adapter sent tells, once returned: its check's outcome. */
function outcomesOf(prenote: ACHPrenotification, accountId: string): BankOutcome[] {
  const address = parseCheckKey(prenote.idempotency_key);
  const reason = prenote.prenotification_return?.return_reason_code;
  if (!address || prenote.account_id !== accountId || prenote.status !== 'returned' || !reason) return [];
  if (prenote.credit_debit_indicator !== INDICATOR[address.kind]) return [];
  // A reason newer than this SDK reaches the domain as it is, which fails the check as unexpected.
  const code = NACHA_CODE_OF[reason] ?? reason;
  const returned: Partial<AccountCheck> = address.kind === 'status' ? statusReturnOf(code) : debitReturnOf(code);
  return [{ tenant: address.tenant, id: address.id, kind: address.kind, returned }];
}
