import type { StreamRule } from '#shared/stream/rules';
import type { ScreeningMessage } from './screening-message';

/** A new or changed sanctions entry re-screens the verified persons of its name (via the screening queue). */
export const screeningEntryStreamRule: StreamRule = ({ eventName, newImage }) => {
  if (eventName === 'REMOVE' || newImage.list !== 'sanctions') return [];
  const nameKey = String(newImage.name_key);
  const body: ScreeningMessage = { name_key: nameKey };
  return [{ kind: 'enqueue', queue: 'screening', message: { id: nameKey.slice(0, 80), body } }];
};
