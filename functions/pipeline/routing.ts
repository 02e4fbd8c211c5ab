import { type EventEnvelope, eventId, verifyAccountStatusChanged } from '#domain/events';
import type { VerifyAccount } from '#domain/verify-account';
import { ENTITY } from '#shared/db/keys';
import { toAccount } from '#shared/db/verify-account-item';
import { presentAccount } from '../verify-accounts/present';

/**
 * What one table-stream record asks for. Pure, so the routing rules are tested without a
 * stream: a new account goes to the verification queue, a status change becomes a stored
 * event, and a stored event goes to the webhook queue.
 */
export type RouterAction =
  | { kind: 'verify'; tenant: string; id: string }
  | { kind: 'record-event'; tenant: string; envelope: EventEnvelope }
  | { kind: 'publish-event'; tenant: string; eventId: string };

type Image = Record<string, unknown> | undefined;

export function routeStreamRecord(eventName: string | undefined, oldImage: Image, newImage: Image): RouterAction[] {
  if (!newImage) return [];
  const tenant = String(newImage.tenant ?? '');
  if (!tenant) return [];

  if (newImage.entity === ENTITY.verifyAccount) {
    if (eventName === 'INSERT') return [{ kind: 'verify', tenant, id: String(newImage.id) }];
    if (eventName === 'MODIFY' && oldImage && verifyAccountStatusChanged(oldImage, newImage)) {
      return [{ kind: 'record-event', tenant, envelope: accountUpdated(toAccount(newImage)) }];
    }
    return [];
  }
  if (newImage.entity === ENTITY.event && eventName === 'INSERT') {
    return [{ kind: 'publish-event', tenant, eventId: String(newImage.id) }];
  }
  return [];
}

/** `verify_account_updated`: its id is fixed by the account id and version, so a replay yields the same event. */
export function accountUpdated(account: VerifyAccount): EventEnvelope {
  return {
    event_id: eventId('verify_account_updated', account.id, account.version),
    event_type: 'verify_account_updated',
    created_at: account.updated_at,
    event_data: { account: presentAccount(account) },
  };
}
