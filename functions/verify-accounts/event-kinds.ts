import { type EventEnvelope, eventId } from '#domain/event-envelope';
import type { VerifyAccount } from '#domain/verify-account';
import { presentAccount } from './present';

/** The event kinds of verify accounts. */
export const VERIFY_ACCOUNT_EVENT_TYPES = ['verify_account_updated'] as const;

/** `verify_account_updated`: its id is fixed by the account id and version, so a replay yields the same event. */
export function accountUpdated(account: VerifyAccount): EventEnvelope {
  return {
    event_id: eventId('verify_account_updated', account.id, account.version),
    event_type: 'verify_account_updated',
    created_at: account.updated_at,
    event_data: { account: presentAccount(account) },
  };
}
