import { queueWorker } from '#shared/batch';
import { accountMessage } from '../account-message';
import { completeVerification } from '../complete-verification';

/** Completes verifications from the verification queue (SQS, partial batch failures). */
export const handler = queueWorker(
  { worker: 'verification-worker', body: accountMessage, tenantOf: (message) => message.tenant },
  (message, logger) =>
    completeVerification(
      message.tenant,
      message.id,
      logger.child({ tenant: message.tenant, verify_account_id: message.id }),
    ),
);
