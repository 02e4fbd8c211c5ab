// What the Increase adapter (./increase-bank.ts) is built from: its secrets and settings.

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
  /**
   * The name a holder sees beside the statement code when the account has no `sender_name`
   * (printable ASCII, at most 11 characters: docs/api.md#what-a-holder-sees).
   * @default 'VERIFY'
   */
  statementName?: string;
}
