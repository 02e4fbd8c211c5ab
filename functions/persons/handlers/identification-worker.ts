import { queueWorker } from '#shared/batch';
import { identificationMessage } from '../identification-message';
import { identifyPerson } from '../identify-person';

/** Identifies persons from the identification queue (SQS, partial batch failures). */
export const handler = queueWorker(
  { worker: 'identification-worker', body: identificationMessage, tenantOf: (message) => message.tenant },
  (message, logger) => identifyPerson(message, logger.child({ tenant: message.tenant, person_id: message.id })),
);
