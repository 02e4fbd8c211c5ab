import { ENTITY } from '#shared/db/entities';
import type { Image, StreamAction, StreamRule } from '#shared/stream/rules';
import { eventStreamRule } from '../events/stream-rules';
import { verifyAccountStreamRule } from '../verify-accounts/stream-rules';

/** Each entity's stream rules, declared by its area; an entity without rules asks for nothing. */
export const STREAM_RULES: Readonly<Record<string, StreamRule>> = {
  [ENTITY.verifyAccount]: verifyAccountStreamRule,
  [ENTITY.event]: eventStreamRule,
};

/** What one stream record asks for: its entity's rules applied to the change. */
export function actionsFor(
  eventName: string | undefined,
  oldImage: Image | undefined,
  newImage: Image | undefined,
  rules: Readonly<Record<string, StreamRule>> = STREAM_RULES,
): StreamAction[] {
  if (!newImage || (eventName !== 'INSERT' && eventName !== 'MODIFY' && eventName !== 'REMOVE')) return [];
  const tenant = String(newImage.tenant ?? '');
  const rule = rules[String(newImage.entity)];
  if (!tenant || !rule) return [];
  return rule({ eventName, tenant, oldImage, newImage });
}
