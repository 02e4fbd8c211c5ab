// Webhook configurations (docs/api.md#webhook-configurations): where a tenant's events
// go, and which kinds. Pure rules only; storage is in functions/shared/db/webhook-configurations/
// (the signing secret's in functions/shared/db/webhook-secrets/).

export { SUBSCRIBE_ALL, subscribes } from './webhook-delivery';

/** Every person kind (`person_*`). */
export const PERSON_ALL = 'person_all';

/** Orum stamps each configuration with the API version its events are shaped by; there is one. */
export const WEBHOOK_DATA_VERSION = 'v2022-09-21';

/**
 * A tenant's configurations are read on every delivery and each one is a delivery per
 * event; a small cap keeps both bounded (Orum does not publish its own).
 */
export const MAX_WEBHOOK_CONFIGURATIONS = 10;

export interface WebhookConfiguration {
  id: string;
  tenant: string;
  url: string;
  /** Event kinds, `subscribe_all` or `person_all`. */
  event_types: string[];
  enabled: boolean;
  data_version: string;
  created_at: string;
  /** The client id of the token that created it. */
  created_by: string;
  updated_at: string;
  updated_by: string;
  /**
   * The scopes that read events of the token that created or last replaced it: it receives
   * only the kinds they read (functions/webhooks/subscriptions.ts). Never shown. Absent on a
   * configuration saved before they were stored (issue 27).
   */
  scopes?: string[];
  version: number;
}
