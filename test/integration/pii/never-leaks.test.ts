import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { CONSUMERS, ROUTES, routeKey } from '#lib/service/index';
import { OPERATOR, startTestRuntime } from '../harness';
import { startReceiver } from '../webhooks/receiver';
import { useTestDns } from '../webhooks/support';
import { type Context, SCENARIOS } from './scenarios/index';
import {
  ACCOUNT_NUMBER_SECRETS,
  captureLogs,
  EIN,
  type Exchange,
  type Haystack,
  keyAttributes,
  leaks,
  recordingApi,
  type Secret,
  SSNS,
  STATEMENT_CODES,
  STRAY_EIN,
  scanTable,
} from './support';

/**
 * SSNs, tax ids, account numbers, statement codes, webhook secrets and bearer tokens go
 * through every route of the route table (success and error paths) and every consumer
 * (verification, identification, screening, webhook sender and delivery, schedules);
 * then every log line, every answer, every table item, every queued message, every
 * webhook delivery and every email is searched for them (docs/api.md#sensitive-values).
 *
 * Account numbers are the owner's: they are answered to their tenant, stored in the
 * account and carried by its events and webhooks, but never logged, never in an error,
 * a queue message, an email or a table key. Webhook secrets are answered only by the two
 * secret routes. Everything else appears nowhere.
 */
let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let capture: ReturnType<typeof captureLogs>;
const exchanges: Exchange[] = [];
let context: Context;

const strayWebhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
let bearerTokens: Secret;
let webhookSecrets: Secret;

/** Sensitive everywhere: SSNs, tax ids, statement codes, bearer tokens, a webhook secret that is not the tenant's. */
const alwaysSecret = (): Secret[] => [
  ...Object.values(SSNS),
  EIN,
  STRAY_EIN,
  ...STATEMENT_CODES,
  bearerTokens,
  { label: 'webhook secret sent where it does not belong', forms: [strayWebhookSecret, strayWebhookSecret.slice(6)] },
];

beforeAll(async () => {
  process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '60';
  capture = captureLogs();
  // `/flaky` fails every other attempt: deliveries there are retried, and each attempt recorded.
  receiver = await startReceiver((path, n) => (path === '/flaky' && n % 2 === 1 ? 500 : 200));
  runtime = await startTestRuntime({
    log: capture.runtimeLog,
    // Delivery retries (5 s, then longer) in well under a second.
    pipelineTimings: { queueDelayTimeScale: 1 / 100_000 },
  });
  useTestDns();
  const aliceToken = await runtime.mintToken('tenant-pii');
  const bobToken = await runtime.mintToken('tenant-pii-other');
  const expired = await runtime.issuer.mint({
    tenant: 'tenant-pii',
    issuedAt: Math.floor(Date.now() / 1000) - 7_200,
    ttlSeconds: 60,
  });
  const readOnly = await runtime.mintToken('tenant-pii', ['read:persons']);
  const operatorToken = await runtime.mintToken(OPERATOR, ['review:screening']);
  bearerTokens = {
    label: 'bearer token',
    forms: [aliceToken, bobToken, expired, readOnly, operatorToken].flatMap((token) => [
      token,
      token.split('.')[2] as string,
    ]),
  };
  context = {
    runtime,
    alice: recordingApi(runtime, aliceToken, exchanges),
    bob: recordingApi(runtime, bobToken, exchanges),
    operator: recordingApi(runtime, operatorToken, exchanges),
    tokens: { alice: aliceToken, expired },
    strayWebhookSecret,
    receiverUrl: receiver.url,
    state: { webhookSecrets: [], accounts: {} as never, persons: {} as never },
  };

  // Refused by the gateway: an expired token (401) and one without the route's scope (403).
  await recordingApi(runtime, expired, exchanges).post('/persons', { social_security_number: SSNS.stray.forms[0] });
  await recordingApi(runtime, readOnly, exchanges).post('/persons', { social_security_number: SSNS.stray.forms[0] });

  for (const scenario of Object.values(SCENARIOS)) await scenario(context);
  for (const consumer of CONSUMERS) if (consumer.source.kind === 'schedule') await runtime.runSchedule(consumer.id);
  await runtime.settle(30_000);
  webhookSecrets = {
    label: 'the tenant’s webhook secret',
    forms: context.state.webhookSecrets.flatMap((secret) => [secret, secret.slice('whsec_'.length)]),
  };
}, 120_000);

afterAll(async () => {
  capture?.restore();
  await runtime?.stop();
  await receiver?.close();
  delete process.env.IDENTIFICATION_RETRY_DELAY_SECONDS;
});

const answers = (filter: (exchange: Exchange) => boolean): Haystack[] =>
  exchanges.filter(filter).map(({ request, response }) => ({
    where: `${request} → ${response.status}`,
    text: `${JSON.stringify(response.headers)}\n${JSON.stringify(response.body)}`,
  }));

const isSecretRoute = ({ request }: Exchange) => / \/webhooks\/secret$/.test(request);

describe('PII and secrets never leak', () => {
  it('has a scenario for every route of the route table, and nothing else', () => {
    // The scenarios of a route live in the file of its area (its handler's folder under functions/).
    const fileOf = (handler: string) => `test/integration/pii/scenarios/${handler.split('/')[1]}.ts`;
    const missing = ROUTES.filter((route) => !(routeKey(route) in SCENARIOS)).map(
      (route) => `${routeKey(route)}: add its scenario to ${fileOf(route.handler)}`,
    );
    const extra = Object.keys(SCENARIOS)
      .filter((key) => !ROUTES.some((route) => routeKey(route) === key))
      .map((key) => `${key}: no such route; remove its scenario`);
    expect([...missing, ...extra]).toEqual([]);
  });

  it('fed every queue consumer of the consumer list and delivered webhooks', () => {
    for (const consumer of CONSUMERS) {
      if (consumer.source.kind !== 'queue') continue;
      expect(runtime.queues.queue(consumer.source.queue).sentBodies().length, consumer.id).toBeGreaterThan(0);
    }
    expect(receiver.at('/ok').length).toBeGreaterThan(0);
    expect(receiver.at('/flaky').length).toBeGreaterThan(receiver.at('/ok').length);
    expect(runtime.outbox.messages.length).toBeGreaterThan(0);
    expect(capture.lines.length).toBeGreaterThan(0);
  });

  it('logs none of them, webhook secrets and account numbers included', () => {
    const lines = capture.lines.map((text, index) => ({ where: `log line ${index}`, text }));
    expect(leaks(lines, [...alwaysSecret(), webhookSecrets, ...ACCOUNT_NUMBER_SECRETS])).toEqual([]);
  });

  it('answers none of them in an error, webhook secrets and account numbers included', () => {
    const errors = answers(({ response }) => response.status >= 400);
    expect(errors.length).toBeGreaterThan(50);
    expect(leaks(errors, [...alwaysSecret(), webhookSecrets, ...ACCOUNT_NUMBER_SECRETS])).toEqual([]);
  });

  it('answers SSNs, tax ids, statement codes and tokens in no success; the webhook secret only on its own routes', () => {
    const successes = answers(({ response }) => response.status < 400);
    expect(leaks(successes, alwaysSecret())).toEqual([]);
    expect(
      leaks(
        answers((e) => e.response.status < 400 && !isSecretRoute(e)),
        [webhookSecrets],
      ),
    ).toEqual([]);
  });

  it('stores none of them in the table in the clear, and account numbers in no key', async () => {
    const items = await scanTable(runtime);
    const stored = items.map((item) => ({ where: `item ${item.pk} ${item.sk}`, text: JSON.stringify(item) }));
    expect(leaks(stored, [...alwaysSecret(), webhookSecrets])).toEqual([]);
    const keys = items.map((item) => ({
      where: `key ${item.pk} ${item.sk}`,
      text: JSON.stringify(keyAttributes(item)),
    }));
    expect(leaks(keys, ACCOUNT_NUMBER_SECRETS)).toEqual([]);
  });

  it('queues none of them, account numbers included (messages carry ids)', () => {
    const queued: Haystack[] = [];
    for (const consumer of CONSUMERS) {
      if (consumer.source.kind !== 'queue') continue;
      const id = consumer.source.queue;
      const text = (bodies: unknown[]) => bodies.map((body) => JSON.stringify(body)).join('\n');
      queued.push({ where: `queue ${id}`, text: text(runtime.queues.queue(id).sentBodies()) });
      queued.push({ where: `dead-letter queue ${id}`, text: text(runtime.queues.deadLetterQueue(id).bodies()) });
    }
    expect(leaks(queued, [...alwaysSecret(), webhookSecrets, ...ACCOUNT_NUMBER_SECRETS])).toEqual([]);
  });

  it('delivers none of them in a webhook (an account’s events carry its number, as GET answers it)', () => {
    const deliveries = receiver.received.map((request, index) => ({
      where: `delivery ${index} to ${request.path}`,
      text: `${JSON.stringify(request.headers)}\n${request.body}`,
    }));
    expect(deliveries.length).toBeGreaterThan(0);
    expect(leaks(deliveries, [...alwaysSecret(), webhookSecrets])).toEqual([]);
  });

  it('emails none of them, account numbers included (the holder sees the last four digits)', () => {
    const emails = runtime.outbox.messages.map((message, index) => ({
      where: `email ${index}`,
      text: JSON.stringify(message),
    }));
    expect(leaks(emails, [...alwaysSecret(), webhookSecrets, ...ACCOUNT_NUMBER_SECRETS])).toEqual([]);
  });
});
