import { subscribes, type WebhookConfiguration } from '#domain/webhook-configuration';
import { EVENT_LOG_SCOPES } from '#functions/event-catalogue/kinds';
import { insufficientScope, unreadableSelectors } from '#functions/event-catalogue/read-scopes';
import type { Scope } from '#shared/scopes';

// Which events a configuration receives (docs/api.md#webhook-configurations): the kinds it
// names, within those the token that saved it reads. Checked when it is saved (403
// insufficient_scope) and again at delivery (the fan-out and every attempt), so a kind its
// scopes do not read never reaches it: one added to `subscribe_all` later, or read with a
// scope the saving token lacked.

/**
 * The scopes a configuration keeps of the token saving it (POST or PUT): those that read
 * events, in the catalogue's order. Refused with 403 when they do not read every kind its
 * `event_types` stand for (`subscribe_all`: every kind, so every such scope).
 */
export function subscriptionScopes(eventTypes: readonly string[], scopes: readonly Scope[]): Scope[] {
  const unreadable = unreadableSelectors(eventTypes, scopes);
  if (unreadable.length > 0) throw insufficientScope(unreadable, scopes);
  return EVENT_LOG_SCOPES.filter((scope) => scopes.includes(scope));
}

/**
 * What a configuration saved before scopes were stored (issue 27) is held to: the scopes
 * that read events then, written out rather than derived from the catalogue, so it keeps
 * every kind it named and received before, and no kind read with a scope added later
 * reaches it until a token holding that scope saves it again
 * (docs/decisions.md#a-configuration-receives-only-what-the-token-that-saved-it-reads-issue-27).
 */
export const GRANDFATHERED_SCOPES: readonly Scope[] = ['read:persons', 'read:verify-accounts', 'invoke:webhook'];

/** Whether `configuration` receives events of `eventType`: enabled, subscribed, and read by its saved scopes. */
export function receives(configuration: WebhookConfiguration, eventType: string): boolean {
  const scopes = configuration.scopes ?? GRANDFATHERED_SCOPES;
  return (
    configuration.enabled &&
    subscribes(configuration.event_types, eventType) &&
    unreadableSelectors([eventType], scopes).length === 0
  );
}
