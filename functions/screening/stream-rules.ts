import { SCREENING_SHARDS } from '#shared/db/persons/item';
import type { StreamRule } from '#shared/stream/rules';
import type { ScreeningMessage } from './screening-message';

/**
 * A change of the lists re-screens the verified persons against the listings it names:
 * one screening message per shard of the persons, walked in parallel (functions/screening/rescreen.ts).
 */
export const screeningChangeStreamRule: StreamRule = ({ eventName, newImage }) => {
  if (eventName !== 'INSERT') return [];
  const changeId = String(newImage.change_id);
  return Array.from({ length: SCREENING_SHARDS }, (_, shard) => {
    const body: ScreeningMessage = { kind: 'change', change_id: changeId, shard };
    return { kind: 'enqueue', queue: 'screening', message: { id: `shard-${shard}`, body } };
  });
};
