import { screeningLists } from '#shared/db/screening/index';
import { invocation } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { messageQueue } from '#shared/queue/index';
import type { ScreeningMessage } from '../screening-message';

/**
 * Daily: every verified person is screened again against the whole sanctions list. The
 * list is walked page by page and each of its names goes to the screening queue, whose
 * worker reads only the persons of that name (docs/data-model.md, pattern 13): the cost
 * follows the list's size, not the number of persons, and no person is missed.
 */
export const handler = invocation<void, { names: number }>(async () => {
  const logger = createLogger({ worker: 'daily-rescreen' });
  let names = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await screeningLists().namesPage('sanctions', startKey);
    await messageQueue().send(
      'screening',
      page.nameKeys.map((nameKey, n) => ({ id: String(n), body: { name_key: nameKey } satisfies ScreeningMessage })),
    );
    names += page.nameKeys.length;
    startKey = page.next;
  } while (startKey);
  logger.info('sanctions names queued for re-screening', { names });
  return { names };
});
