import * as z from 'zod/mini';
import { PERSON_ALL, SUBSCRIBE_ALL } from '#domain/webhook-configuration';
import { EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { documented, string } from '#shared/input-schemas';
import { STORABLE_KEY_NAMES, STORABLE_KEY_RULE, STORABLE_NUMBER_RULE, storableJson } from '#shared/storable-json';

// Request schemas of the webhook routes (docs/api.md#webhooks). Messages state the rule
// and never echo the value (a URL may carry a token in its query string).

/** What `event_types` may hold: every kind the service emits, and the two groups. */
export const EVENT_TYPE_SELECTORS: readonly string[] = [SUBSCRIBE_ALL, PERSON_ALL, ...EVENT_TYPES];

/** Above any sensible subscription (duplicates included), refused before it is walked. */
const MAX_EVENT_TYPES = 50;
const MAX_URL_LENGTH = 2048;

/**
 * An absolute http(s) URL with a host and no credentials: user and password in the URL
 * would be stored and shown on every GET, and deliveries are authenticated by their
 * signature instead. Which schemes and addresses are allowed is the URL policy's
 * (functions/shared/webhook-url), checked by the use case.
 */
function isWebhookUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.username && !url.password
  );
}

const url = documented(
  string().check(
    z.refine(isWebhookUrl, {
      message: `must be an absolute https URL of at most ${MAX_URL_LENGTH} characters, without user or password`,
    }),
  ),
  { format: 'uri', maxLength: MAX_URL_LENGTH },
);

/** Known kinds only (`invalid_event_types`), at least one; a kind given twice counts once. */
const eventTypes = documented(
  z.pipe(
    z.array(string(), { error: 'must be a list of event types' }).check(
      z.minLength(1, 'must hold at least one event type'),
      z.maxLength(MAX_EVENT_TYPES, `must hold at most ${MAX_EVENT_TYPES} event types`),
      z.refine((types) => types.every((type) => EVENT_TYPE_SELECTORS.includes(type)), {
        message: `may hold only ${EVENT_TYPE_SELECTORS.join(', ')}`,
      }),
    ),
    z.transform((types) => [...new Set(types)]),
  ),
  { items: { type: 'string', enum: EVENT_TYPE_SELECTORS } },
);

/** POST /webhooks/configurations and PUT /webhooks/configurations/{id}: Orum's ConfigurationRequest. */
export const configurationBody = z.strictObject({
  url,
  event_types: eventTypes,
  enabled: z.boolean({ error: 'must be true or false' }),
});
export type ConfigurationBody = z.output<typeof configurationBody>;

/**
 * The request fields whose values the service never keeps in the clear (docs/api.md#test-event):
 * an SSN, a tax id, a statement code. Refused by exact name (case, `_` and `-` aside), so the
 * match results and Orum's own fields a record carries (`ssn_match`, `tax_id_match`,
 * `tax_id_type`) pass: a pattern anywhere in the name refused an account as GET answers it.
 */
const SENSITIVE_DATA_KEYS = ['ssn', 'social_security_number', 'tax_id', 'statement_code'] as const;

const bareName = (key: string) => key.toLowerCase().replace(/[-_]/g, '');
const SENSITIVE_NAMES: ReadonlySet<string> = new Set(SENSITIVE_DATA_KEYS.map(bareName));

/**
 * How deep `data` may nest. It is stored inside the event item, whose own levels count
 * toward DynamoDB's limit of 32 nested levels; a deeper one would fail the write (a 500).
 */
const MAX_DATA_DEPTH = 16;

/** Whether a key at any depth names a sensitive field; `data` is known to nest at most MAX_DATA_DEPTH levels. */
function holdsSensitiveKey(data: unknown): boolean {
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    for (const [key, inner] of Object.entries(value)) {
      if (SENSITIVE_NAMES.has(bareName(key))) return true;
      pending.push(inner);
    }
  }
  return false;
}

/**
 * POST /webhooks/invoke's `data`: the record to send, stored in the event log and delivered
 * as sent. So it must be JSON that DynamoDB stores unchanged (#shared/storable-json, the rule
 * a person's metadata follows too), and hold no field the service never keeps in the clear.
 */
export const testEventData = documented(
  z.pipe(
    storableJson(MAX_DATA_DEPTH),
    z.record(z.string(), z.unknown(), { error: 'must be an object (the record to send)' }).check(
      z.refine((data) => !holdsSensitiveKey(data), {
        message: `must not hold a key named ${SENSITIVE_DATA_KEYS.join(', ')} (send the record as GET answers it)`,
      }),
    ),
  ),
  {
    propertyNames: STORABLE_KEY_NAMES,
    description: `The record to send, stored and delivered as sent: any JSON object nesting at most ${MAX_DATA_DEPTH} levels deep, with ${STORABLE_NUMBER_RULE}; ${STORABLE_KEY_RULE}, and none named ${SENSITIVE_DATA_KEYS.join(', ')} (case, \`_\` and \`-\` aside) at any depth.`,
  },
);
