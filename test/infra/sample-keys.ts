import type { Entity } from '#shared/db/entities';
import { keys } from '#shared/db/keys';
import { positionKeys } from '#shared/db/list-positions/index';
import { personKeys } from '#shared/db/persons/keys';
import { screeningKeys } from '#shared/db/screening/keys';
import { hitKeys } from '#shared/db/screening-hits/keys';
import { eventKeys } from '#shared/db/stored-events/keys';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { webhookConfigurationKeys } from '#shared/db/webhook-configurations/keys';
import { webhookSecretKeys } from '#shared/db/webhook-secrets/keys';
import { setDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';

// Digested keys (slots, references, idempotency records) need a digest key; any will do.
setDependencies({ digestKey: new DigestKey(Buffer.alloc(32, 1)) });

/**
 * One partition key of every kind of item the table holds, by its `entity`, a tenant's
 * built for `tenant` (records of no tenant are the same for every tenant). Typed over every
 * entity, so a new one must be listed here before the suites that use it compile.
 */
export const sampleKeys = (tenant: string) =>
  ({
    verify_account: accountKeys.account(tenant, 'id-1').pk,
    bank_wait: accountKeys.bankWait(tenant, 'id-1', 'status').pk,
    verification_slot: accountKeys.slots(tenant, '021000021', '123456789'),
    idempotency: keys.idempotency(tenant, 'POST /verify/accounts', 'key-1').pk,
    tenant_alias: keys.tenantAlias('client-1').pk,
    event: eventKeys.event(tenant, 'evt-1').pk,
    delivery_attempt: eventKeys.attempt(tenant, 'evt-1', 0).pk,
    delivery_claim: eventKeys.claim(tenant, 'evt-1', { configuration_id: 'cfg-1', attempt: 1 }).pk,
    person: personKeys.person(tenant, 'id-2').pk,
    person_reference: personKeys.reference(tenant, 'ref-1').pk,
    review_case: personKeys.reviewCase(tenant, 'id-2', '2026-01-01T00:00:00.000Z').pk,
    screening_change: screeningKeys.change('2026-01-01T00:00:00.000Z#c1').pk,
    screening_hit: hitKeys.hit(tenant, 'id-2', 'sanctions', 'SDN-1').pk,
    screening_listing: screeningKeys.listing('sanctions', 'SDN-1').pk,
    screening_version: screeningKeys.version.pk,
    tenant_settings: keys.tenantSettings(tenant).pk,
    rate_bucket: keys.rateBucket(tenant).pk,
    webhook_configuration: webhookConfigurationKeys.configuration(tenant, 'cfg-1').pk,
    webhook_configuration_count: webhookConfigurationKeys.configurationCount(tenant).pk,
    webhook_secret: webhookSecretKeys.secret(tenant).pk,
    redelivery_pace: eventKeys.redeliveryPace(tenant).pk,
    screening_run: screeningKeys.run('daily#2026-01-01T04:30:00.000Z', 3).pk,
    list_position: positionKeys.cursor(tenant, 'AAAAAAAAAAAAAAAAAAAAAA').pk,
  }) as const satisfies Record<Entity, string>;
