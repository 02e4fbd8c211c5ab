import { describe, expect, it } from 'vitest';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { OncePerTenant } from '#functions/webhooks/batch-reads';
import type { DeliveryMessage } from '#functions/webhooks/delivery-message';
import { deliveriesOf } from '#functions/webhooks/fan-out';

/**
 * Which configurations an event is fanned out to: the enabled ones subscribed to its kind
 * whose saved scopes read that kind (docs/api.md#webhook-configurations). The scopes are
 * checked again at delivery, as well as when the configuration is saved: a kind added to
 * `subscribe_all` later, or read with a scope the saving token lacked, never reaches it.
 */
const TENANT = 'tenant-fan-out';

const configuration = (id: string, over: Partial<WebhookConfiguration>): WebhookConfiguration => ({
  id,
  tenant: TENANT,
  url: `https://hooks.example.com/${id}`,
  event_types: ['subscribe_all'],
  enabled: true,
  data_version: 'v2022-09-21',
  created_at: '2026-01-15T10:00:00.000Z',
  created_by: 'partner-a',
  updated_at: '2026-01-15T10:00:00.000Z',
  updated_by: 'partner-a',
  version: 1,
  ...over,
});

async function receivers(configurations: WebhookConfiguration[], event_type: string): Promise<string[]> {
  const deliveries = await deliveriesOf(
    { tenant: TENANT, event_id: '4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a', event_type },
    { configurations: new OncePerTenant(async () => configurations) },
  );
  return deliveries.map(({ message }) => (message.body as DeliveryMessage).configuration_id);
}

describe('fan-out: scopes saved with a configuration', () => {
  it('a subscribe_all configuration saved with read:persons only gets person events, never an account event', async () => {
    const persons = configuration('persons', { scopes: ['read:persons'] });

    expect(await receivers([persons], 'person_verified')).toEqual(['persons']);
    expect(await receivers([persons], 'verify_account_updated')).toEqual([]);
    expect(await receivers([persons], 'business_created')).toEqual([]);
  });

  it('a configuration naming a kind its scopes do not read gets no event of it', async () => {
    const narrowed = configuration('narrowed', {
      event_types: ['verify_account_updated'],
      scopes: ['read:persons', 'invoke:webhook'],
    });

    expect(await receivers([narrowed], 'verify_account_updated')).toEqual([]);
  });

  it('a configuration saved with every read scope gets every kind it subscribes to', async () => {
    const every = configuration('every', { scopes: ['read:persons', 'read:verify-accounts', 'invoke:webhook'] });

    for (const kind of ['person_closed', 'verify_account_updated', 'business_created']) {
      expect(await receivers([every], kind)).toEqual(['every']);
    }
  });

  it('a configuration saved before scopes were stored gets the kinds it names, as before (grandfathered)', async () => {
    const legacyAll = configuration('legacy-all', {});
    const legacyPersons = configuration('legacy-persons', { event_types: ['person_all'] });

    expect(await receivers([legacyAll, legacyPersons], 'verify_account_updated')).toEqual(['legacy-all']);
    expect(await receivers([legacyAll, legacyPersons], 'person_created')).toEqual(['legacy-all', 'legacy-persons']);
    expect(await receivers([legacyAll, legacyPersons], 'business_created')).toEqual(['legacy-all']);
  });

  it('an event of a kind the catalogue does not know reaches no configuration', async () => {
    const every = configuration('every', { scopes: ['read:persons', 'read:verify-accounts', 'invoke:webhook'] });

    expect(await receivers([every], 'ledger_updated')).toEqual([]);
  });
});
