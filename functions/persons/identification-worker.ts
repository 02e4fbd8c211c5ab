import * as z from 'zod/mini';
import { queueWorker } from '#shared/batch';
import { identifyPerson } from './identify-person';

/** Identification queue message: which person, for which identity revision, and whether it is the automatic retry. */
export const identificationMessage = z.object({
  tenant: z.string().check(z.minLength(1)),
  id: z.uuid(),
  identity_rev: z.number().check(z.int(), z.minimum(1)),
  retry: z.optional(z.boolean()),
});

/** Identifies persons from the identification queue (SQS, partial batch failures). */
export const handler = queueWorker(
  { worker: 'identification-worker', body: identificationMessage },
  (message, logger) => identifyPerson(message, logger.child({ tenant: message.tenant, person_id: message.id })),
);
