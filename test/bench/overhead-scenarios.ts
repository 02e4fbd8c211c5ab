import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { planRecording } from '#domain/screening-review';
import { storeScreening } from '#functions/screening-review/record-screening';
import { completeVerification } from '#functions/verify-accounts/complete-verification';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { persons, type StoredPerson } from '#shared/db/persons/index';
import { hitIdOf } from '#shared/db/screening-hits/index';
import { storedEvents } from '#shared/db/stored-events/index';
import { eventKeys } from '#shared/db/stored-events/keys';
import { createLogger } from '#shared/logger';
import type { ApiRequest } from './api-event';
import type { BenchService, HttpAnswer } from './bench-service';
import type { Call } from './call-recorder';

/**
 * For every HTTP route, a request on which it does its real work, and what it must find
 * in the table first. Each seed goes through the service itself (its handlers, or the
 * pipeline's use cases for what the pipeline writes: a settled verification, delivery
 * attempts), so the table holds what the service writes. Request bodies follow
 * docs/api.md and docs/sandbox.md.
 */
export interface Scenario {
  /** The status the route answers when it did its work. */
  readonly status: number;
  /** Once, before the first request. */
  seed?(): Promise<void>;
  /** The i-th request; anything it needs of its own (a fresh account to close…) is made here, untimed. */
  request(i: number): Promise<ApiRequest> | ApiRequest;
  /** After the i-th request (and its bare replay), untimed: e.g. freeing what it took. */
  after?(i: number, answer: HttpAnswer): Promise<void>;
  /**
   * The calls the bare side makes, on the handler's table (renamed to the twin's), for a
   * handler that does not send through the service's recorded ports (the kept floor);
   * otherwise the handler's own recorded calls are replayed.
   */
  bareCalls?(table: string): Call[];
}

const ROUTING_NUMBER = '021000021';
const route = (id: string): RouteDefinition => ROUTES.find((candidate) => candidate.id === id) as RouteDefinition;

/**
 * A bank account number of its own per series and request: a tenant may verify one bank
 * account 5 times a day. Ending in 0, never one of the sandbox's failing suffixes.
 */
const accountNumber = (series: number, i: number) => `${series}${String(i).padStart(7, '0')}0`;

/** `status_ownership` with a person and an SSN, as docs/sandbox.md's first example: the encrypting path. */
const ownershipAccount = (number: string) => ({
  type: 'status_ownership',
  account_number: number,
  routing_number: ROUTING_NUMBER,
  account_holder_name: 'Jane Doe',
  person: { first_name: 'Jane', last_name: 'Doe', ssn: '123456789', phone_number: '+14155550123' },
});

const controlAccount = (number: string) => ({
  type: 'control',
  account_number: number,
  routing_number: ROUTING_NUMBER,
  account_holder_name: 'Jane Doe',
  sender_name: 'Acme Payroll',
});

const person = (reference: string, variant = 0) => ({
  customer_reference_id: reference,
  first_name: 'Jane',
  middle_name: 'Quinn',
  last_name: 'Doe',
  date_of_birth: '1985-04-12',
  social_security_number: '123-45-6789',
  addresses: [
    {
      type: 'home',
      address1: '100 Main Street',
      address2: 'Apt 4B',
      city: 'Springfield',
      state: 'IL',
      country: 'US',
      zip5: '62701',
    },
  ],
  contacts: [
    { type: 'email', value: 'jane.doe@example.com' },
    { type: 'phone', value: '+14155550123' },
  ],
  metadata: { segment: variant % 2 ? 'payroll' : 'vendor', region: 'midwest' },
});

const webhookConfiguration = (enabled = true) => ({
  url: 'https://hooks.acme.example/orum',
  event_types: ['person_all', 'verify_account_updated'],
  enabled,
});

/**
 * Measured and printed beside the routes, not part of `overhead_ratio`: what an optional
 * feature adds. An `Idempotency-Key` (docs/api.md#idempotency) costs a claim and a
 * completion write on top of the request.
 */
export function overheadVariants(
  scenarios: Record<string, Scenario>,
): { name: string; routeId: string; scenario: Scenario }[] {
  const create = scenarios.CreateVerifyAccount as Scenario;
  return [
    {
      name: 'CreateVerifyAccount + Idempotency-Key',
      routeId: 'CreateVerifyAccount',
      scenario: {
        status: create.status,
        // Another series of bank accounts than the plain route's.
        request: (i) => ({ ...ownershipRequest(6, i), headers: { 'Idempotency-Key': randomUUID() } }),
      },
    },
  ];
}

const ownershipRequest = (series: number, i: number): ApiRequest => ({
  body: ownershipAccount(accountNumber(series, i)),
});

/** A configuration subscribes only to the kinds its token reads (docs/api.md#webhooks): these, for the kinds below. */
const EVENT_READS = ['read:persons', 'read:verify-accounts'];

/** Letters only: screening folds names to letters. */
const word = (i: number) => [...String(i).padStart(4, '0')].map((d) => 'abcdefghij'[Number(d)]).join('');

export function overheadScenarios(service: BenchService, clientId: string): Record<string, Scenario> {
  const tenant = clientId;
  const logger = createLogger({ bench: 'overhead' });
  const call = async (routeId: string, request: ApiRequest, status = 200): Promise<any> => {
    const answer = await service.invoke(route(routeId), request, clientId);
    if (answer.statusCode !== status) {
      throw new Error(`seeding ${routeId} answered ${answer.statusCode}: ${answer.body}`);
    }
    return answer.body ? JSON.parse(answer.body) : undefined;
  };
  /** An account as the pipeline leaves it: created, then verified by the sandbox bank. */
  const settledAccount = async (body: unknown): Promise<string> => {
    const { account } = await call('CreateVerifyAccount', { body });
    await completeVerification(tenant, account.id, logger);
    return account.id;
  };
  const newPerson = async (reference: string): Promise<string> =>
    (await call('CreatePerson', { body: person(reference) })).person.id;
  const newConfiguration = async (): Promise<string> =>
    (await call('CreateWebhookConfiguration', { body: webhookConfiguration(), scopes: EVENT_READS }))
      .webhook_configuration.id;

  // What several routes read, made on first use (whichever route runs first).
  const oneAccount = once(() => settledAccount(ownershipAccount(accountNumber(3, 0))));
  const onePerson = once(() => newPerson('bench-one'));
  const oneConfiguration = once(async () => {
    for (let i = 1; i < 5; i++) await newConfiguration();
    return newConfiguration();
  });
  const oneSecret = once(() => call('CreateWebhookSecret', {}));
  const oneEvent = once(() => storedEventWithAttempts(tenant));
  /** An open hit on a new person, recorded as a screening records it (planRecording, then storeScreening). */
  const openHit = async (n: number): Promise<string> => {
    const personId = await newPerson(`bench-hit-${n}`);
    const screening = {
      tenant,
      personId,
      screened: { first_name: 'Jane', last_name: `Doe ${word(n)}` },
      listsVersion: 1,
      at: new Date().toISOString(),
    };
    const hit = {
      list: 'sanctions',
      source: 'SDN',
      entryId: `bench-${n}`,
      listedName: `DOE, Jane ${word(n)}`,
      matchedName: `DOE, Jane ${word(n)}`,
      matchedKind: 'primary',
      score: 92,
      dateOfBirth: 'unknown',
      listingRevision: 'bench',
    } as const;
    const stored = (await persons().getStored(tenant, personId)) as StoredPerson;
    await storeScreening(stored, planRecording([], screening, [hit]), undefined, new Date());
    return hitIdOf({ tenant, personId, list: hit.list, entryId: hit.entryId });
  };
  const someHits = once(async () => {
    for (let n = 0; n < 30; n++) await openHit(n);
  });

  return {
    CreateVerifyAccount: { status: 200, request: (i) => ownershipRequest(1, i) },
    ListVerifyAccounts: {
      status: 200,
      seed: async () => {
        for (let i = 0; i < 120; i++) await settledAccount(ownershipAccount(accountNumber(2, i)));
      },
      request: () => ({ query: 'size=100' }),
    },
    GetVerifyAccount: { status: 200, request: async () => ({ pathParameters: { id: await oneAccount() } }) },
    VerifyAccountControl: {
      status: 200,
      request: async (i) => ({
        pathParameters: { id: await settledAccount(controlAccount(accountNumber(4, i))) },
        body: { statement_code: '0000' },
      }),
    },
    VerifyAccountDebits: {
      status: 200,
      request: async (i) => ({ pathParameters: { id: await settledAccount(ownershipAccount(accountNumber(5, i))) } }),
    },
    CreatePerson: { status: 200, request: (i) => ({ body: person(`bench-create-${i}`) }) },
    ListPersons: {
      status: 200,
      seed: async () => {
        for (let i = 0; i < 120; i++) await newPerson(`bench-list-${i}`);
      },
      request: () => ({ query: 'size=100' }),
    },
    GetPerson: { status: 200, request: async () => ({ pathParameters: { id: await onePerson() } }) },
    UpdatePerson: {
      status: 200,
      request: async (i) => ({
        pathParameters: { id: await onePerson() },
        body: { metadata: { segment: i % 2 ? 'payroll' : 'vendor' }, contacts: person('', i).contacts },
      }),
    },
    ReplacePerson: {
      status: 200,
      request: async (i) => ({ pathParameters: { id: await onePerson() }, body: person('bench-one', i) }),
    },
    UpsertPerson: {
      status: 200,
      request: async (i) => {
        await onePerson();
        return { body: person('bench-one', i) };
      },
    },
    ClosePerson: {
      status: 200,
      request: async (i) => ({ pathParameters: { id: await newPerson(`bench-close-${i}`) } }),
    },
    AddSanctionsEntry: { status: 201, request: (i) => ({ body: { name: `Quentin ${word(i)}` } }) },
    ListEvents: {
      status: 200,
      // Stored as the stream rules store them: 120 test events through the API would meet the invoke pace.
      seed: async () => {
        for (let i = 0; i < 120; i++) await storedEvent(tenant);
      },
      request: () => ({ query: 'size=100' }),
    },
    GetEvent: { status: 200, request: async () => ({ pathParameters: { id: await oneEvent() } }) },
    RedeliverEvent: {
      status: 202,
      // A redelivery needs the scope that reads its event's kind, as reading it does.
      request: async () => ({ pathParameters: { id: await oneEvent() }, scopes: ['read:verify-accounts'] }),
      // Redelivery is paced (5 per event, 10 at once per tenant): each request starts afresh (untimed).
      after: async () => resetRedeliveryPace(tenant, await oneEvent()),
    },
    InvokeWebhook: {
      status: 201,
      request: () => ({ body: { event_type: 'verify_account_updated' } }),
      // Test events are paced (10 at once per tenant): each request starts afresh (untimed).
      after: () => resetTenantPace(tenant),
    },
    ListWebhookConfigurations: {
      status: 200,
      request: async () => {
        await oneConfiguration();
        return {};
      },
    },
    // The tenant keeps at most 10: each one created is deleted again (untimed).
    CreateWebhookConfiguration: {
      status: 200,
      request: () => ({ body: webhookConfiguration(), scopes: EVENT_READS }),
      after: async (_, answer) => {
        const { webhook_configuration } = JSON.parse(answer.body as string);
        await call('DeleteWebhookConfiguration', { pathParameters: { id: webhook_configuration.id } }, 204);
      },
    },
    ReplaceWebhookConfiguration: {
      status: 200,
      request: async (i) => ({
        pathParameters: { id: await oneConfiguration() },
        body: webhookConfiguration(i % 2 === 0),
        scopes: EVENT_READS,
      }),
    },
    DeleteWebhookConfiguration: {
      status: 204,
      request: async () => ({ pathParameters: { id: await newConfiguration() } }),
    },
    CreateWebhookSecret: { status: 200, request: () => ({}) },
    ListScreeningHits: {
      status: 200,
      request: async (i) => {
        await someHits();
        return { query: i % 2 ? 'status=open&size=20' : 'size=10' };
      },
    },
    DecideScreeningHit: {
      status: 200,
      request: async (i) => ({
        pathParameters: { id: await openHit(1_000 + i) },
        body: { decision: i % 2 ? 'false_positive' : 'confirmed' },
      }),
    },
    GetWebhookSecret: {
      status: 200,
      request: async () => {
        await oneSecret();
        return {};
      },
    },
  };
}

/** An event as the stream rules store it. */
async function storedEvent(tenant: string): Promise<string> {
  const eventId = randomUUID();
  const data = { account: { id: randomUUID(), verification_status: 'valid', debit_status: 'valid' } };
  const envelope = { event_id: eventId, event_type: 'verify_account_updated', created_at: new Date().toISOString() };
  await storedEvents().store(tenant, { ...envelope, event_data: data });
  return eventId;
}

/** An event as the stream rules store it, and two delivery attempts as the delivery worker records them. */
async function storedEventWithAttempts(tenant: string): Promise<string> {
  const eventId = await storedEvent(tenant);
  for (let attempt = 1; attempt <= 2; attempt++) {
    const outcome = attempt === 1 ? { status_code: 503, error: 'HTTP 503' } : { status_code: 200 };
    await storedEvents().recordAttempt(
      tenant,
      eventId,
      {
        at: new Date().toISOString(),
        url: 'https://hooks.acme.example/orum',
        latency_ms: 180,
        configuration_id: randomUUID(),
        attempt,
        ...outcome,
      },
      Math.ceil(Date.now() / 1000) + 86_400,
    );
  }
  return eventId;
}

/** The table the overhead part replays a handler's calls on (test/bench/overhead.ts). */
export const twinTableOf = (handlerTable: string): string => `${handlerTable}-bare`;

/** Forgets the event's and the tenant's redelivery pace, so the next redelivery is admitted. */
async function resetRedeliveryPace(tenant: string, eventId: string): Promise<void> {
  for (const TableName of [tableName(), twinTableOf(tableName())]) {
    await documentClient().send(
      new UpdateCommand({
        TableName,
        Key: eventKeys.event(tenant, eventId),
        UpdateExpression: 'REMOVE redelivery_tat',
      }),
    );
  }
  await resetTenantPace(tenant);
}

/** Forgets the tenant's pace of test events and redeliveries, in the service's table and its twin. */
async function resetTenantPace(tenant: string): Promise<void> {
  for (const TableName of [tableName(), twinTableOf(tableName())]) {
    await documentClient().send(new DeleteCommand({ TableName, Key: eventKeys.redeliveryPace(tenant) }));
  }
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
