import { createHmac } from 'node:crypto';
import type { UnwrapWebhookEvent } from 'increase/resources/events';

// Increase's webhooks as the SDK's `unwrap` checks them: Standard Webhooks headers, the HMAC
// keyed with the secret's raw bytes (as Increase shows it, not base64-decoded).

/**
 * The webhook telling that an object changed: event `event_<sequence>` of `category`, sent
 * as message `msg_<sequence>` at `at`, signed with `secret`.
 */
export function increaseWebhook(
  { sequence, objectId, category, at }: { sequence: number; objectId: string; category: string; at: Date },
  secret: string,
): { body: string; headers: Record<string, string> } {
  const event: UnwrapWebhookEvent = {
    id: `event_${sequence}`,
    associated_object_id: objectId,
    associated_object_type: objectId.split('_').slice(0, -1).join('_'),
    category: category as UnwrapWebhookEvent['category'],
    created_at: at.toISOString(),
    type: 'event',
  };
  const id = `msg_${sequence}`;
  const body = JSON.stringify(event);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return {
    body,
    headers: { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
  };
}
