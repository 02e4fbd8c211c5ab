import { queueWorker } from '#shared/batch';
import { rescreenName } from '../rescreen';
import { screeningMessage } from '../screening-message';

/** Re-screens by name from the screening queue (SQS, partial batch failures). */
export const handler = queueWorker({ worker: 'screening-worker', body: screeningMessage }, async (message, logger) => {
  await rescreenName(message.name_key, logger);
});
