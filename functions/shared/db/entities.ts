/**
 * The `entity` attribute every item carries: what kind of record it is. Stream filters
 * (lib/service/), stream rules and the repositories all name entities by these values.
 */
export const ENTITY = {
  verifyAccount: 'verify_account',
  verificationSlot: 'verification_slot',
  bankWait: 'bank_wait',
  idempotency: 'idempotency',
  tenantAlias: 'tenant_alias',
  event: 'event',
  deliveryAttempt: 'delivery_attempt',
  deliveryClaim: 'delivery_claim',
  person: 'person',
  personReference: 'person_reference',
  reviewCase: 'review_case',
  screeningChange: 'screening_change',
  screeningHit: 'screening_hit',
  screeningListing: 'screening_listing',
  screeningRun: 'screening_run',
  screeningVersion: 'screening_version',
  tenantSettings: 'tenant_settings',
  rateBucket: 'rate_bucket',
  redeliveryPace: 'redelivery_pace',
  webhookConfiguration: 'webhook_configuration',
  webhookConfigurationCount: 'webhook_configuration_count',
  webhookSecret: 'webhook_secret',
  listPosition: 'list_position',
} as const;

export type Entity = (typeof ENTITY)[keyof typeof ENTITY];
