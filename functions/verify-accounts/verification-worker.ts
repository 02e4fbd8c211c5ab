import * as z from 'zod/mini';
import { queueWorker } from '#shared/batch';
import { completeVerification } from './complete-verification';

/** Verification queue message: which account to verify. */
export const verificationMessage = z.object({ tenant: z.string().check(z.minLength(1)), id: z.uuid() });

/** Completes verifications from the verification queue (SQS, partial batch failures). */
export const handler = queueWorker({ worker: 'verification-worker', body: verificationMessage }, (message, logger) =>
  completeVerification(
    message.tenant,
    message.id,
    logger.child({ tenant: message.tenant, verify_account_id: message.id }),
  ),
);
