import { AppError } from '#shared/errors';
import type { Logger } from '#shared/logger';
import type { CountMetric } from '#shared/metric-names';
import { metrics } from '#shared/metrics';

// What every provider's notice route (the bank's, the identity vendor's) does with the
// notice its adapter reads: a notice the provider did not sign answers 401
// `invalid_signature`; one it signed about nothing of the service's answers 200 and is
// counted, so the provider does not send it again for ever; anything else fails (500), and
// the provider sends it again.

/** How a provider's adapter says a notice is none of its own, or about nothing of the service's. */
export interface NoticeOutcomes {
  /** Its error for a notice it did not sign (bad, missing or stale signature). */
  readonly refused: abstract new (
    ...args: never[]
  ) => Error;
  /** Its error for a signed notice about nothing of the service's; `reason` says why. */
  readonly ignored: abstract new (
    ...args: never[]
  ) => Error & { readonly reason: string };
  /** The metric counting ignored notices, its metadata `reason` saying why. */
  readonly metric: CountMetric;
  /** Who signs them, as an answer says it: `the increase bank`, `the plaid identity vendor`. */
  readonly signer: string;
}

/** What the notice tells, as the adapter read it; none when it is signed but about nothing of the service's. */
export async function readSignedNotice<T>(
  read: () => Promise<T[]>,
  outcomes: NoticeOutcomes,
  logger: Logger,
): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof outcomes.ignored) {
      metrics().count(outcomes.metric);
      metrics().metadata('reason', error.reason);
      logger.info(`notice from ${outcomes.signer} about nothing of this service’s: ignored`, { reason: error.reason });
      return [];
    }
    if (!(error instanceof outcomes.refused)) throw error;
    throw new AppError(401, 'invalid_signature', `the notice is not signed by ${outcomes.signer}`, undefined, {
      cause: error,
    });
  }
}
