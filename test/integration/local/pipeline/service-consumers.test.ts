import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '#test/integration/harness';
import { accountBody, freshAccountNumber } from '#test/integration/verify-accounts/support';
import { recordWebhooks } from '#test/integration/webhooks/support';

/**
 * The service's own pipeline (lib/service CONSUMERS, the default) in the local runtime,
 * end to end: HTTP create → table stream → stream router → verification queue →
 * verification worker → table → stream router → event → stream router fan-out →
 * webhook-deliveries queue → delivery worker, plus the email.
 */
let runtime: LocalRuntime;
let outboxDir: string;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  outboxDir = await mkdtemp(join(tmpdir(), 'outbox-'));
  runtime = await startTestRuntime({ outboxDir });
  call = api(runtime, await runtime.mintToken('tenant-pipeline'));
});
afterAll(async () => {
  await runtime?.stop();
  await rm(outboxDir, { recursive: true, force: true });
});

describe('the verification pipeline in the local runtime', () => {
  it('completes a control verification, emails the holder and delivers the event’s webhook', async () => {
    const delivered = await recordWebhooks(call);
    const created = await call.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber(), type: 'control', email: 'holder@example.com' }),
    );
    expect(created.status).toBe(200);
    const { id } = created.body.account;
    await runtime.settle();

    const fetched = await call.get(`/verify/accounts/${id}`);
    expect(fetched.body.account).toMatchObject({ id, verification_status: 'valid', control_status: 'pending' });
    expect(runtime.outbox.messages.map((m) => m.to)).toContain('holder@example.com');
    expect(runtime.queues.queue('webhookDeliveries').sentBodies()).toContainEqual({
      tenant: 'tenant-pipeline',
      event_id: expect.any(String),
      configuration_id: expect.any(String),
      attempt: 1,
    });
    expect(delivered.some((webhook) => webhook.body.includes(id))).toBe(true);
    expect(runtime.queues.queue('verification').size).toBe(0);
    expect(runtime.queues.deadLetterQueue('verification').size).toBe(0);
    expect(runtime.streamFailures).toEqual([]);
  });

  it('ends a sandbox failure (account ending 1111) invalid, with control canceled', async () => {
    const created = await call.post('/verify/accounts', accountBody({ account_number: '987651111', type: 'control' }));
    await runtime.settle();
    const fetched = await call.get(`/verify/accounts/${created.body.account.id}`);
    expect(fetched.body.account).toMatchObject({ verification_status: 'invalid', control_status: 'canceled' });
  });
});
