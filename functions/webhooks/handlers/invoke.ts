import * as z from 'zod/mini';
import { ORUM_EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { httpHandler } from '#shared/http/handler';
import { sendTestEvent } from '../test-events';

/**
 * The request fields whose values the service never keeps in the clear (docs/api.md#test-event):
 * an SSN, a tax id, a statement code. Refused by exact name (case, `_` and `-` aside), so the
 * match results and Orum's own fields a record carries (`ssn_match`, `tax_id_match`,
 * `tax_id_type`) pass: a pattern anywhere in the name refused an account as GET answers it.
 */
const SENSITIVE_DATA_KEYS = ['ssn', 'social_security_number', 'tax_id', 'statement_code'] as const;

const bareName = (key: string) => key.toLowerCase().replace(/[-_]/g, '');
const SENSITIVE_NAMES: ReadonlySet<string> = new Set(SENSITIVE_DATA_KEYS.map(bareName));
const isSensitiveKey = (key: string) => SENSITIVE_NAMES.has(bareName(key));

/**
 * How deep `data` may nest. It is stored inside the event item, whose own levels count
 * toward DynamoDB's limit of 32 nested levels; a deeper one would fail the write (a 500).
 */
const MAX_DATA_DEPTH = 16;

/** Walks `data` once, iteratively (no nesting depth overflows the stack). */
function inspectData(data: unknown): { depth: number; sensitiveKey: boolean } {
  const pending: [unknown, number][] = [[data, 1]];
  let depth = 0;
  while (pending.length > 0) {
    const [value, level] = pending.pop() as [unknown, number];
    if (value === null || typeof value !== 'object') continue;
    depth = Math.max(depth, level);
    if (depth > MAX_DATA_DEPTH) return { depth, sensitiveKey: false };
    for (const [key, inner] of Object.entries(value)) {
      if (isSensitiveKey(key)) return { depth, sensitiveKey: true };
      pending.push([inner, level + 1]);
    }
  }
  return { depth, sensitiveKey: false };
}

const body = z.strictObject({
  // Every kind of Orum's trigger schema: a sample of a kind the service never emits is still a valid test delivery.
  event_type: z.enum(ORUM_EVENT_TYPES, { error: `must be one of ${ORUM_EVENT_TYPES.join(', ')}` }),
  // Stored in the event log and delivered as sent: an SSN or tax id in it would be kept in the clear.
  data: z.optional(
    z.record(z.string(), z.unknown(), { error: 'must be an object (the record to send)' }).check(
      z.refine((data) => inspectData(data).depth <= MAX_DATA_DEPTH, {
        message: `must nest at most ${MAX_DATA_DEPTH} levels deep`,
        abort: true,
      }),
      z.refine((data) => !inspectData(data).sensitiveKey, {
        message: `must not hold a key named ${SENSITIVE_DATA_KEYS.join(', ')} (send the record as GET answers it)`,
      }),
    ),
  ),
});

/**
 * POST /webhooks/invoke — 201, no body, as Orum: a test event of `event_type`, marked as one
 * (`test: true`), carrying `data` or a generated sample; paced with redelivery (429
 * invoke_rate_exceeded).
 */
export const handler = httpHandler({ body }, async ({ tenant, body }) => {
  await sendTestEvent(tenant, body.event_type, body.data);
  return { statusCode: 201 };
});
