import * as z from 'zod/mini';
import { PERSON_ALL, SUBSCRIBE_ALL } from '#domain/webhook-configuration';
import { EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { documented, string } from '#shared/input-schemas';

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
