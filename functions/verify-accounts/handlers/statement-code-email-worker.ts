import { queueWorker } from '#shared/batch';
import { accountMessage } from '../account-message';
import { notifyHolder } from '../notify-holder';

/**
 * Emails account holders their statement code is on its way, from the statement-code-emails
 * queue (fed by the stream rule on the code being sent; SQS, partial batch failures). The
 * only function that sends email, so no other carries the SES client.
 */
export const handler = queueWorker(
  { worker: 'statement-code-email-worker', body: accountMessage, tenantOf: (message) => message.tenant },
  (message, logger) =>
    notifyHolder(message.tenant, message.id, logger.child({ tenant: message.tenant, verify_account_id: message.id })),
);
