import * as z from 'zod/mini';
import { queueWorker } from '#shared/batch';
import { rescreenName } from './rescreen';

/** Screening queue message: a folded name on the sanctions list whose verified persons are screened again. */
export const screeningMessage = z.object({ name_key: z.string().check(z.minLength(1)) });

/** Re-screens by name from the screening queue (SQS, partial batch failures). */
export const handler = queueWorker({ worker: 'screening-worker', body: screeningMessage }, async (message, logger) => {
  await rescreenName(message.name_key, logger);
});
