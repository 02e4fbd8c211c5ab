import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storedEvents } from '#shared/db/stored-events/index';
import { api } from '../harness';
import { configurationBody, useWebhooksRuntime } from './support';

/**
 * A webhook configuration delivers persons and accounts as their GET routes answer them,
 * so it may subscribe only to the kinds the token saving it reads (docs/api.md#webhook-configurations),
 * and a redelivery needs the event's read scope besides `invoke:webhook` (docs/api.md#event-log):
 * `write:webhook-configurations` or `invoke:webhook` alone is no way to anyone's data (issue 27).
 */
const env = useWebhooksRuntime();
const EVERY_READ_SCOPE = ['read:persons', 'read:verify-accounts', 'invoke:webhook'];

type Client = ReturnType<typeof api>;
const clientOf = async (tenant: string, scopes: string[]): Promise<Client> =>
  api(env.runtime, await env.runtime.mintToken(tenant, scopes));
const idsOf = async (tenant: string): Promise<string[]> => {
  const reader = await clientOf(tenant, ['read:webhook-configurations']);
  return (await reader.get('/webhooks/configurations')).body.webhook_configurations.map((c: { id: string }) => c.id);
};

describe('POST /webhooks/configurations: only kinds the token reads', () => {
  it('write:webhook-configurations alone cannot subscribe to subscribe_all: 403 insufficient_scope naming every read scope, nothing saved', async () => {
    const tenant = 'tenant-scopes-config-only';
    const writer = await clientOf(tenant, ['write:webhook-configurations']);

    const refused = await writer.post(
      '/webhooks/configurations',
      configurationBody({ event_types: ['subscribe_all'] }),
    );

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { event_types: ['subscribe_all'], required_scopes: EVERY_READ_SCOPE },
    });
    expect(await idsOf(tenant)).toEqual([]);
  });

  it('a token reading persons may subscribe to person_all and person kinds, not to verify_account_updated: 403 naming read:verify-accounts', async () => {
    const tenant = 'tenant-scopes-persons';
    const writer = await clientOf(tenant, ['write:webhook-configurations', 'read:persons']);

    expect(
      (await writer.post('/webhooks/configurations', configurationBody({ event_types: ['person_all'] }))).status,
    ).toBe(200);
    expect(
      (await writer.post('/webhooks/configurations', configurationBody({ event_types: ['person_verified'] }))).status,
    ).toBe(200);
    const refused = await writer.post(
      '/webhooks/configurations',
      configurationBody({ event_types: ['person_all', 'verify_account_updated'] }),
    );

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { event_types: ['verify_account_updated'], required_scopes: ['read:verify-accounts'] },
    });
    expect(await idsOf(tenant)).toHaveLength(2);
  });

  it('subscribe_all needs every scope that reads a kind: both area read scopes without invoke:webhook answer 403 naming invoke:webhook', async () => {
    const tenant = 'tenant-scopes-both-areas';
    const areas = await clientOf(tenant, ['write:webhook-configurations', 'read:persons', 'read:verify-accounts']);
    const refused = await areas.post('/webhooks/configurations', configurationBody({ event_types: ['subscribe_all'] }));
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ event_types: ['subscribe_all'], required_scopes: ['invoke:webhook'] });

    const every = await clientOf(tenant, ['write:webhook-configurations', ...EVERY_READ_SCOPE]);
    expect(
      (await every.post('/webhooks/configurations', configurationBody({ event_types: ['subscribe_all'] }))).status,
    ).toBe(200);
  });
});

describe('PUT /webhooks/configurations/{id}: the same rule', () => {
  it('a replace naming a kind the token does not read answers 403 insufficient_scope and leaves the configuration as it was', async () => {
    const tenant = 'tenant-scopes-replace';
    const owner = await clientOf(tenant, [
      'write:webhook-configurations',
      'read:persons',
      'read:webhook-configurations',
    ]);
    const created = (await owner.post('/webhooks/configurations', configurationBody({ event_types: ['person_all'] })))
      .body.webhook_configuration;

    const refused = await owner.put(
      `/webhooks/configurations/${created.id}`,
      configurationBody({ event_types: ['subscribe_all'] }),
    );

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { event_types: ['subscribe_all'], required_scopes: ['read:verify-accounts', 'invoke:webhook'] },
    });
    const [kept] = (await owner.get('/webhooks/configurations')).body.webhook_configurations;
    expect(kept).toEqual(created);
    const replaced = await owner.put(
      `/webhooks/configurations/${created.id}`,
      configurationBody({ event_types: ['person_closed'] }),
    );
    expect([replaced.status, replaced.body.webhook_configuration?.event_types]).toEqual([200, ['person_closed']]);
  });
});

describe('POST /events/{id}/redeliver: the event’s read scope too', () => {
  /** An event as the stream router stores it (no pipeline runs here). */
  async function storedEvent(tenant: string, event_type: string): Promise<string> {
    const event_id = randomUUID();
    const record = event_type === 'verify_account_updated' ? 'account' : 'business';
    await storedEvents().store(tenant, {
      event_id,
      event_type,
      created_at: new Date().toISOString(),
      event_data: { [record]: { id: randomUUID() } },
    });
    return event_id;
  }

  it('invoke:webhook alone cannot redeliver an account event: 403 insufficient_scope naming read:verify-accounts, and no budget used', async () => {
    const tenant = 'tenant-scopes-redeliver';
    const id = await storedEvent(tenant, 'verify_account_updated');
    const invoker = await clientOf(tenant, ['invoke:webhook']);

    const refused = await invoker.post(`/events/${id}/redeliver`, {});

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { event_types: ['verify_account_updated'], required_scopes: ['read:verify-accounts'] },
    });
    // The event's bound admits 5 at once: the refusal took none of them.
    const reader = await clientOf(tenant, ['invoke:webhook', 'read:verify-accounts']);
    for (let i = 0; i < 5; i++) expect((await reader.post(`/events/${id}/redeliver`, {})).status).toBe(202);
  });

  it('invoke:webhook redelivers a test event of a kind only it reads (business_created)', async () => {
    const tenant = 'tenant-scopes-redeliver-test-kind';
    const id = await storedEvent(tenant, 'business_created');
    const invoker = await clientOf(tenant, ['invoke:webhook']);
    expect((await invoker.post(`/events/${id}/redeliver`, {})).status).toBe(202);
  });
});
