// When a webhook counts as delivered, when it is tried again, and which configurations
// receive which events (docs/api.md#webhooks). Pure rules: the sender, the queue and the
// configuration handlers apply them.

/**
 * Waits before attempts 2…7: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, so a receiver that is
 * down for most of a day still gets the event. The local runtime compresses them.
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000];

/** The first attempt and one per retry delay; after the last the delivery is dead-lettered. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** A receiver answers within 10 s or the attempt fails (and is retried). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Seconds to wait before the next attempt after `attemptsMade` attempts failed, or undefined
 * once all of them are used up. With nothing tried yet, the first attempt goes at once.
 */
export function nextAttemptDelay(attemptsMade: number): number | undefined {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError('attemptsMade is a count of attempts: a whole number, 0 or more');
  }
  if (attemptsMade === 0) return 0;
  return RETRY_DELAYS_SECONDS[attemptsMade - 1];
}

/** Any 2xx is success. A 3xx is a failure, not a hop: its target never passed the URL check. */
export function isSuccess(status: number): boolean {
  return Number.isInteger(status) && status >= 200 && status <= 299;
}

/** Every event type, present and future. */
export const SUBSCRIBE_ALL = 'subscribe_all';

/** `<prefix>_all` stands for every event type that begins with `<prefix>_`. */
const GROUP_SUFFIX = '_all';

/**
 * The groups a configuration may list. Only `person_all`, the one Orum publishes: the service
 * mirrors Orum's contract, and `verify_account_all` would add a name Orum's partners don't know
 * for a single kind (`verify_account_updated`) that is subscribed to by its own name.
 * A group added here is matched by `subscribes` without further code.
 */
const EVENT_TYPE_GROUPS: readonly string[] = ['person_all'];

/** Whether a configuration listing `eventTypes` receives an event of `eventType`. */
export function subscribes(eventTypes: readonly string[], eventType: string): boolean {
  return eventTypes.some((listed) => listed === SUBSCRIBE_ALL || listed === eventType || inGroup(listed, eventType));
}

function inGroup(listed: string, eventType: string): boolean {
  if (!listed.endsWith(GROUP_SUFFIX)) return false;
  const prefix = listed.slice(0, -GROUP_SUFFIX.length);
  return prefix.length > 0 && eventType.startsWith(`${prefix}_`);
}

/**
 * What a configuration may list: `subscribe_all`, the groups and every kind of the catalogue.
 * The catalogue is a parameter because it is joined from the areas (functions/event-catalogue/kinds.ts),
 * which the domain does not import.
 */
export function webhookEventTypes(eventTypes: readonly string[]): string[] {
  return [SUBSCRIBE_ALL, ...EVENT_TYPE_GROUPS, ...eventTypes];
}

export function isSubscribableEventType(value: string, eventTypes: readonly string[]): boolean {
  return webhookEventTypes(eventTypes).includes(value);
}
