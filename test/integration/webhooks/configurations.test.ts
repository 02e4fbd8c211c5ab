import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '#functions/webhooks/delivery-message';
import { deliveriesOf } from '#functions/webhooks/fan-out';
import { api } from '../harness';
import { configurationBody, useTestDns, useWebhooksRuntime } from './support';

/** The webhook configuration routes over HTTP through the local runtime. */
const env = useWebhooksRuntime();
const UNKNOWN_ID = '7d3e2b8a-4c1f-4e6a-9b0d-2f5a8c1e3d47';

describe('POST and GET /webhooks/configurations', () => {
  it("answers Orum's WebhookConfiguration: every required field, the tenant as enterprise_name, the client id as created_by", async () => {
    const created = await env.alice.post('/webhooks/configurations', configurationBody());
    expect(created.status).toBe(200);
    const configuration = created.body.webhook_configuration;
    expect(configuration).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      enterprise_name: 'tenant-alice',
      data_version: 'v2022-09-21',
      event_types: ['person_all'],
      enabled: true,
      url: 'https://hooks.example.com/orum',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      created_by: 'tenant-alice',
      updated_at: configuration.created_at,
      updated_by: 'tenant-alice',
    });
    const listed = await env.alice.get('/webhooks/configurations');
    expect(listed.status).toBe(200);
    expect(listed.body.webhook_configurations).toContainEqual(configuration);
  });

  it('lists newest first, and only the tenant’s own', async () => {
    const first = (await env.bob.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    const second = (await env.bob.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    const listed = (await env.bob.get('/webhooks/configurations')).body.webhook_configurations;
    expect(listed.map((c: { id: string }) => c.id).slice(0, 2)).toEqual([second.id, first.id]);
    const alices = (await env.alice.get('/webhooks/configurations')).body.webhook_configurations;
    expect(alices.map((c: { id: string }) => c.id)).not.toContain(first.id);
  });

  it('refuses unknown event types: 400 invalid_event_types', async () => {
    const res = await env.alice.post(
      '/webhooks/configurations',
      configurationBody({ event_types: ['transfer_updated'] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('invalid_event_types');
  });

  it('refuses a malformed URL: 400 invalid_url', async () => {
    const res = await env.alice.post('/webhooks/configurations', configurationBody({ url: 'not a url' }));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('invalid_url');
  });

  it('accepts http on loopback locally, and refuses http elsewhere: 400 invalid_url with the reason', async () => {
    const loopback = await env.alice.post(
      '/webhooks/configurations',
      configurationBody({ url: 'http://127.0.0.1:9999/hooks' }),
    );
    expect(loopback.status).toBe(200);
    await env.alice.delete(`/webhooks/configurations/${loopback.body.webhook_configuration.id}`);

    const remote = await env.alice.post(
      '/webhooks/configurations',
      configurationBody({ url: 'http://hooks.example.com/x' }),
    );
    expect(remote.status).toBe(400);
    expect(remote.body.error_code).toBe('invalid_url');
    expect(remote.body.message).toContain('https');
  });

  it('refuses a port other than 443 outside loopback: 400 invalid_url naming the port rule', async () => {
    const res = await env.alice.post(
      '/webhooks/configurations',
      configurationBody({ url: 'https://hooks.example.com:8443/orum' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('invalid_url');
    expect(res.body.message).toContain('port must be 443');

    const created = (await env.alice.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    const replaced = await env.alice.put(
      `/webhooks/configurations/${created.id}`,
      configurationBody({ url: 'https://hooks.example.com:8080/orum' }),
    );
    await env.alice.delete(`/webhooks/configurations/${created.id}`);
    expect(replaced.status).toBe(400);
    expect(replaced.body.error_code).toBe('invalid_url');
  });

  it('refuses http on loopback too when the policy is AWS mode', async () => {
    useTestDns(false);
    try {
      const res = await env.alice.post(
        '/webhooks/configurations',
        configurationBody({ url: 'http://127.0.0.1:9999/x' }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('invalid_url');
    } finally {
      useTestDns();
    }
  });
});

describe('PUT /webhooks/configurations/{id}', () => {
  it('replaces url, event_types and enabled, keeps id and creation, stamps the update', async () => {
    const created = (await env.alice.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    const replaced = await env.alice.put(
      `/webhooks/configurations/${created.id}`,
      configurationBody({
        url: 'https://other.example.com/h',
        event_types: ['verify_account_updated'],
        enabled: false,
      }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.webhook_configuration).toMatchObject({
      id: created.id,
      enterprise_name: 'tenant-alice',
      url: 'https://other.example.com/h',
      event_types: ['verify_account_updated'],
      enabled: false,
      created_at: created.created_at,
      created_by: 'tenant-alice',
      updated_by: 'tenant-alice',
    });
    expect(replaced.body.webhook_configuration.updated_at >= created.updated_at).toBe(true);
  });

  it('answers another tenant’s id, an unknown id and a malformed id with 404 unknown_id_webhook_configuration', async () => {
    const alices = (await env.alice.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    for (const id of [alices.id, UNKNOWN_ID, 'nope']) {
      const res = await env.bob.put(`/webhooks/configurations/${id}`, configurationBody());
      expect(res.status, id).toBe(404);
      expect(res.body.error_code).toBe('unknown_id_webhook_configuration');
    }
    const untouched = (await env.alice.get('/webhooks/configurations')).body.webhook_configurations;
    expect(untouched).toContainEqual(alices);
  });
});

describe('DELETE /webhooks/configurations/{id}', () => {
  it('answers 204 with no body, and the configuration is gone', async () => {
    const created = (await env.alice.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    const res = await env.alice.delete(`/webhooks/configurations/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const listed = (await env.alice.get('/webhooks/configurations')).body.webhook_configurations;
    expect(listed.map((c: { id: string }) => c.id)).not.toContain(created.id);
    const again = await env.alice.delete(`/webhooks/configurations/${created.id}`);
    expect(again.status).toBe(404);
  });

  it('answers another tenant’s id with 404 unknown_id_webhook_configuration and leaves it', async () => {
    const alices = (await env.alice.post('/webhooks/configurations', configurationBody())).body.webhook_configuration;
    const res = await env.bob.delete(`/webhooks/configurations/${alices.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe('unknown_id_webhook_configuration');
    const listed = (await env.alice.get('/webhooks/configurations')).body.webhook_configurations;
    expect(listed.map((c: { id: string }) => c.id)).toContain(alices.id);
  });
});

describe('at most 10 configurations per tenant', () => {
  it('refuses the 11th, even when 15 are created at once: 409 too_many_webhook_configurations; a deletion frees a place', async () => {
    const carol = api(env.runtime, await env.runtime.mintToken('tenant-carol'));
    const results = await Promise.all(
      Array.from({ length: 15 }, () => carol.post('/webhooks/configurations', configurationBody())),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => `${r.status} ${r.body.error_code}`)).toEqual(
      Array(5).fill('409 too_many_webhook_configurations'),
    );
    const listed = (await carol.get('/webhooks/configurations')).body.webhook_configurations;
    expect(listed).toHaveLength(10);
    expect((await carol.delete(`/webhooks/configurations/${listed[0].id}`)).status).toBe(204);
    expect((await carol.post('/webhooks/configurations', configurationBody())).status).toBe(200);
  });
});

describe('the configurations the sender delivers to', () => {
  it('are the enabled ones subscribed to the kind: exactly, by subscribe_all, or by person_all for person kinds', async () => {
    const dave = api(env.runtime, await env.runtime.mintToken('tenant-dave'));
    const make = async (event_types: string[], enabled = true) =>
      (await dave.post('/webhooks/configurations', configurationBody({ event_types, enabled }))).body
        .webhook_configuration.id as string;
    const exact = await make(['person_verified']);
    const all = await make(['subscribe_all']);
    const persons = await make(['person_all']);
    const accounts = await make(['verify_account_updated']);
    await make(['subscribe_all'], false);

    const ids = async (event_type: string, tenant = 'tenant-dave') =>
      (await deliveriesOf({ tenant, event_id: randomUUID(), event_type }))
        .map(({ message }) => (message.body as DeliveryMessage).configuration_id)
        .sort();
    expect(await ids('person_verified')).toEqual([exact, all, persons].sort());
    expect(await ids('person_closed')).toEqual([all, persons].sort());
    expect(await ids('verify_account_updated')).toEqual([all, accounts].sort());
    expect(await ids('person_verified', 'tenant-nobody')).toEqual([]);
  });
});
