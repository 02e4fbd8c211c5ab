import { eventStreamRule } from '#functions/event-log/stream-rules';
import { personStreamRule } from '#functions/persons/stream-rules';
import { screeningChangeStreamRule } from '#functions/screening/stream-rules';
import { verifyAccountStreamRule } from '#functions/verify-accounts/stream-rules';
import { ENTITY } from '#shared/db/entities';
import type { Image, StreamAction, StreamRule } from '#shared/stream/rules';

/** Each entity's stream rules, declared by its area; an entity without rules asks for nothing. */
export const STREAM_RULES: Readonly<Record<string, StreamRule>> = {
  [ENTITY.verifyAccount]: verifyAccountStreamRule,
  [ENTITY.event]: eventStreamRule,
  [ENTITY.person]: personStreamRule,
  [ENTITY.screeningChange]: screeningChangeStreamRule,
};

/** Entities that belong to no tenant (the service's own records); every other entity needs one. */
const SERVICE_ENTITIES: ReadonlySet<string> = new Set([ENTITY.screeningChange]);

/** What one stream record asks for: its entity's rules applied to the change. */
export function actionsFor(
  eventName: string | undefined,
  oldImage: Image | undefined,
  newImage: Image | undefined,
  rules: Readonly<Record<string, StreamRule>> = STREAM_RULES,
): StreamAction[] {
  if (!newImage || (eventName !== 'INSERT' && eventName !== 'MODIFY' && eventName !== 'REMOVE')) return [];
  const tenant = String(newImage.tenant ?? '');
  const entity = String(newImage.entity);
  const rule = rules[entity];
  if (!rule || (!tenant && !SERVICE_ENTITIES.has(entity))) return [];
  return rule({ eventName, tenant, oldImage, newImage });
}
