import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { documentClient } from '#shared/db/document-client';
import { keys } from '#shared/db/keys';
import { PREVIOUS_SECRET_TTL_MS, webhookSecrets } from '#shared/db/webhook-secrets/index';
import { webhookSecretKeys } from '#shared/db/webhook-secrets/keys';
import { setLogSink } from '#shared/logger';
import { api } from '../harness';
import { useWebhooksRuntime } from './support';

/** The signing secret over HTTP: creation, rotation, reading; what the sender signs with. */
const env = useWebhooksRuntime();
const HOUR = 60 * 60 * 1000;

async function storedSecretItem(tenant: string) {
  const out = await documentClient().send(
    new GetCommand({ TableName: env.runtime.tableName, Key: webhookSecretKeys.secret(tenant) }),
  );
  return out.Item;
}

describe('POST and GET /webhooks/secret', () => {
  it('answers 404 unknown_webhook_secret before the first secret', async () => {
    const res = await env.bob.get('/webhooks/secret');
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe('unknown_webhook_secret');
  });

  it('creates a Standard Webhooks secret (whsec_ + 24 random bytes), returns it, and GET returns the same', async () => {
    const created = await env.alice.post('/webhooks/secret');
    expect(created.status).toBe(200);
    expect(created.headers['cache-control']).toBe('no-store');
    const { secret, created_at } = created.body.webhook_secret;
    expect(Object.keys(created.body.webhook_secret).sort()).toEqual(['created_at', 'secret']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    // Partners verify with the reference package: the secret is in the form it takes.
    expect(() => new Webhook(secret)).not.toThrow();

    const fetched = await env.alice.get('/webhooks/secret');
    expect(fetched.status).toBe(200);
    expect(fetched.body.webhook_secret).toEqual({ secret, created_at });
  });

  it('stores the secret only encrypted', async () => {
    const { secret } = (await env.alice.post('/webhooks/secret')).body.webhook_secret;
    const item = await storedSecretItem('tenant-alice');
    expect(item?.entity).toBe('webhook_secret');
    expect(JSON.stringify(item)).not.toContain(secret.slice(6));
  });

  it("keeps each tenant's secret its own", async () => {
    const alices = (await env.alice.post('/webhooks/secret')).body.webhook_secret.secret;
    const carol = api(env.runtime, await env.runtime.mintToken('tenant-carol'));
    expect((await carol.get('/webhooks/secret')).status).toBe(404);
    const carols = (await carol.post('/webhooks/secret')).body.webhook_secret.secret;
    expect(carols).not.toBe(alices);
    expect((await env.alice.get('/webhooks/secret')).body.webhook_secret.secret).toBe(alices);
  });
});

describe('rotation', () => {
  it('makes the new secret current and keeps the previous one signing for 24 h', async () => {
    const dave = api(env.runtime, await env.runtime.mintToken('tenant-dave'));
    const first = (await dave.post('/webhooks/secret')).body.webhook_secret;
    const now = Date.now();
    expect(await webhookSecrets().signingSecrets('tenant-dave', new Date(now))).toEqual([first.secret]);

    const second = (await dave.post('/webhooks/secret')).body.webhook_secret;
    expect(second.secret).not.toBe(first.secret);
    expect((await dave.get('/webhooks/secret')).body.webhook_secret).toEqual(second);

    const rotatedAt = Date.parse(second.created_at);
    expect(await webhookSecrets().signingSecrets('tenant-dave', new Date(rotatedAt + 23 * HOUR))).toEqual([
      second.secret,
      first.secret,
    ]);
    expect(await webhookSecrets().signingSecrets('tenant-dave', new Date(rotatedAt + PREVIOUS_SECRET_TTL_MS))).toEqual([
      second.secret,
    ]);
  });

  it('keeps one previous secret: a second rotation drops the oldest', async () => {
    const erin = api(env.runtime, await env.runtime.mintToken('tenant-erin'));
    const secrets = [];
    for (let i = 0; i < 3; i++) secrets.push((await erin.post('/webhooks/secret')).body.webhook_secret.secret);
    expect(await webhookSecrets().signingSecrets('tenant-erin', new Date())).toEqual([secrets[2], secrets[1]]);
  });

  it('takes concurrent rotations one after the other: the last is current, the one before it previous', async () => {
    const frank = api(env.runtime, await env.runtime.mintToken('tenant-frank'));
    const results = await Promise.all(Array.from({ length: 4 }, () => frank.post('/webhooks/secret')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const signing = await webhookSecrets().signingSecrets('tenant-frank', new Date());
    expect(signing).toHaveLength(2);
    const issued = results.map((r) => r.body.webhook_secret.secret);
    expect(issued).toEqual(expect.arrayContaining(signing));
    expect((await frank.get('/webhooks/secret')).body.webhook_secret.secret).toBe(signing[0]);
  });

  it('never keeps the secret in an idempotency record: a retried key rotates again', async () => {
    const gina = api(env.runtime, await env.runtime.mintToken('tenant-gina'));
    const headers = { 'idempotency-key': 'rotate-1' };
    const first = await gina.post('/webhooks/secret', undefined, { headers });
    const second = await gina.post('/webhooks/secret', undefined, { headers });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.webhook_secret.secret).not.toBe(first.body.webhook_secret.secret);
    const record = await documentClient().send(
      new GetCommand({
        TableName: env.runtime.tableName,
        Key: keys.idempotency('tenant-gina', 'POST /webhooks/secret', 'rotate-1'),
      }),
    );
    expect(record.Item).toBeUndefined();
  });
});

describe('logs', () => {
  it('never carry the secret, on creation, reading or signing', async () => {
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    try {
      const hana = api(
        env.runtime,
        await env.runtime.mintToken('tenant-hana', ['read:webhook-secret', 'write:webhook-secret']),
      );
      const { secret } = (await hana.post('/webhooks/secret')).body.webhook_secret;
      await hana.post('/webhooks/secret');
      await hana.get('/webhooks/secret');
      await webhookSecrets().signingSecrets('tenant-hana', new Date());
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toContain(secret.slice(6));
    } finally {
      setLogSink(undefined);
    }
  });
});
