import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { hashStatementCode } from '#domain/statement-code';
import type { BucketPolicy, Take } from '#domain/token-bucket';
import type { Cipher } from '#shared/cipher/cipher';
import { ENTITY } from '#shared/db/entities';
import { KEY_PREFIX } from '#shared/db/key-kinds';
import { keys } from '#shared/db/keys';
import type { RateLimitRepository } from '#shared/db/rate-limits/index';
import { forgetHeldLists } from '#shared/db/screening/held-lists';
import { screeningKeys } from '#shared/db/screening/keys';
import { TenantScopedDocumentClient } from '#shared/db/tenant-access/document-client';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { resetDependencies, setDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';
import { digestOf } from '#shared/digest/index';
import { setLogSink } from '#shared/logger';
import { writeGrantUses } from './grant-audit';
import { DEFAULT_CLIENT_ID, type EventOptions, httpEvent } from './http-events';
import { captureMetrics, type EmfLine } from './metrics';
import { checkPortUses, observeDataKeys } from './port-access-recorder';
import { sealedAccountNumber, TEST_FIELD_CIPHER } from './records';
import { checkRecorded, recordingClient, takeRecorded, usedGrants } from './table-access-recorder';

export { TEST_FIELD_CIPHER } from './records';
export { functionUnderTest } from './table-access-recorder';

// What every handler test shares: DynamoDB mocked at the document client (every instance),
// a fake cipher, a fixed digest key and field key, a fixed clock, captured log lines and captured metrics (EMF lines). Call `useHandlerHarness()` once at
// the top of a test file. Every DynamoDB command a handler sends is checked against its
// function's grant (test/support/table-access-recorder.ts): routes run as the route their
// event names (`invoke`), any other call through `functionUnderTest`; and held to the tenant
// its code acts for (test/support/tenant-check.ts).

// Handlers read TABLE_NAME on first use, not at import, so setting it here is early enough.
export const TABLE = 'test-table';
process.env.TABLE_NAME = TABLE;

/** A Friday afternoon: control estimates roll over the weekend to Monday. */
export const FRIDAY = new Date('2026-01-16T15:30:00.000Z');
export const TENANT = DEFAULT_CLIENT_ID;

export const ddb = mockClient(DynamoDBDocumentClient);

/** The handlers' digest key in unit tests: fixed, so a test may compute the digests a handler stores. */
export const TEST_DIGEST_KEY = new DigestKey(Buffer.alloc(32, 7));

/** Records what it was asked to encrypt; its ciphertext shares nothing with the plaintext. */
export class FakeCipher implements Cipher {
  readonly encrypted: { plaintext: string; context: Record<string, string> }[] = [];

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    this.encrypted.push({ plaintext, context });
    return `fake-ciphertext-${this.encrypted.length}`;
  }

  async decrypt(): Promise<string> {
    throw new Error('the verify handlers never decrypt');
  }
}

/** Every request allowed unless a test fills `refusals` (the bucket's arithmetic is tested on its own, the store on DynamoDB Local). */
export class FakeRateLimits {
  refusals: number[] = [];
  readonly taken: string[] = [];
  async take(tenant: string, _policy: BucketPolicy, now: Date): Promise<Take> {
    this.taken.push(tenant);
    const retryAfterSeconds = this.refusals.shift();
    return retryAfterSeconds === undefined
      ? { allowed: true, next: { tokens: 0, atMs: now.getTime() } }
      : { allowed: false, retryAfterSeconds };
  }
}

export interface Harness {
  cipher: FakeCipher;
  rateLimits: FakeRateLimits;
  /** Log lines written during the current test. */
  logs: string[];
  /** EMF lines written during the current test. */
  metrics: EmfLine[];
}

export function useHandlerHarness(): Harness {
  const harness: Harness = {
    cipher: new FakeCipher(),
    rateLimits: new FakeRateLimits(),
    logs: [],
    metrics: captureMetrics(),
  };
  observeDataKeys();
  beforeEach(() => {
    harness.cipher = new FakeCipher();
    harness.rateLimits = new FakeRateLimits();
    harness.logs = [];
    ddb.reset();
    ddb.on(GetCommand).resolves({});
    // Every client id of these tests is a partner's, mapped to a tenant of its own name, as
    // the stack's alias records map each partner's app client (a test may map one otherwise).
    ddb
      .on(GetCommand, { Key: { sk: keys.tenantAlias('').sk } })
      .callsFake(({ Key }) => ({ Item: { tenant: String(Key.pk).slice(KEY_PREFIX.tenantAlias.length) } }));
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});
    givenSanctionsListing();
    takeRecorded();
    setDependencies({
      // The service's own client class, so what it does before a command is sent runs here too.
      documentClient: recordingClient(
        new TenantScopedDocumentClient(
          new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } }),
        ),
      ),
      cipher: harness.cipher,
      digestKey: TEST_DIGEST_KEY,
      fieldCipher: TEST_FIELD_CIPHER,
      rateLimits: harness.rateLimits as unknown as RateLimitRepository,
      now: () => new Date(FRIDAY),
    });
    setLogSink((line) => harness.logs.push(line));
  });
  afterEach(() => {
    resetDependencies();
    setLogSink(undefined);
    checkRecorded();
    checkPortUses();
  });
  afterAll(() => writeGrantUses('unit', usedGrants, expect.getState().testPath ?? 'unknown'));
  return harness;
}

// ---- operators ------------------------------------------------------------------------

/** An operator's scope claim, as Cognito writes it. */
export const OPERATOR_SCOPE_CLAIM = 'verify-service/review:screening';

/**
 * Maps `clientId` to the alias record the stack writes for one of the service's operators
 * (context `operators`): its own name as tenant, marked `operator`. Warm containers cache an
 * alias per client id: give operators client ids of their own.
 */
export function givenOperator(clientId: string): void {
  ddb.on(GetCommand, { Key: keys.tenantAlias(clientId) }).resolves({ Item: { tenant: clientId, operator: true } });
}

// ---- the screening lists --------------------------------------------------------------

const HELD_LISTING_KEY = screeningKeys.listing('sanctions', 'SDN-1');
const sanctionsPartition = { ExpressionAttributeValues: { ':pk': screeningKeys.listings('sanctions') } };

/**
 * The table's sanctions list, as every handler test starts with it: one fictional listing
 * no test person matches (screening fails closed on an empty list), built afresh.
 */
export function givenSanctionsListing(): void {
  forgetHeldLists();
  ddb.on(QueryCommand, sanctionsPartition).resolves({ Items: [HELD_LISTING_KEY] });
  ddb.on(BatchGetCommand, { RequestItems: { [TABLE]: { Keys: [HELD_LISTING_KEY] } } }).resolves({
    Responses: {
      [TABLE]: [
        {
          ...HELD_LISTING_KEY,
          list: 'sanctions',
          source: 'SDN',
          entry_id: 'SDN-1',
          name: 'NOBODY, Listed Nowhere',
          names: JSON.stringify([{ name: 'NOBODY, Listed Nowhere', kind: 'primary' }]),
          dates_of_birth: '[]',
        },
      ],
    },
  });
}

/** An empty sanctions list (none loaded): screening refuses to screen. */
export function givenNoSanctionsListing(): void {
  forgetHeldLists();
  ddb.on(QueryCommand, sanctionsPartition).resolves({ Items: [] });
}

// ---- requests -------------------------------------------------------------------------

export const VALID_ROUTING_NUMBER = '021000021';

export const validCreateBody = (extra: Record<string, unknown> = {}) => ({
  account_number: '123456789',
  routing_number: VALID_ROUTING_NUMBER,
  account_holder_name: 'Jane Doe',
  ...extra,
});

export const createEvent = (body: unknown, options: EventOptions = {}) =>
  httpEvent({ method: 'POST', path: '/verify/accounts', routeKey: 'POST /verify/accounts', body, ...options });

export const getEvent = (id: string, options: EventOptions = {}) =>
  httpEvent({
    method: 'GET',
    path: `/verify/accounts/${id}`,
    routeKey: 'GET /verify/accounts/{id}',
    pathParameters: { id },
    ...options,
  });

export const listEvent = (rawQueryString = '', options: EventOptions = {}) =>
  httpEvent({ method: 'GET', path: '/verify/accounts', routeKey: 'GET /verify/accounts', rawQueryString, ...options });

export const controlEvent = (id: string, body: unknown, options: EventOptions = {}) =>
  httpEvent({
    method: 'POST',
    path: `/verify/accounts/${id}/control`,
    routeKey: 'POST /verify/accounts/{id}/control',
    pathParameters: { id },
    body,
    ...options,
  });

export const debitsEvent = (id: string, body: unknown = undefined, options: EventOptions = {}) =>
  httpEvent({
    method: 'POST',
    path: `/verify/accounts/${id}/debits`,
    routeKey: 'POST /verify/accounts/{id}/debits',
    pathParameters: { id },
    body,
    ...options,
  });

// ---- stored state ---------------------------------------------------------------------

export const ACCOUNT_ID = '6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f';

/** A verify account as the repository stores it, storage-only attributes included. */
export function storedAccount(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const tenant = (overrides.tenant as string | undefined) ?? TENANT;
  const id = (overrides.id as string | undefined) ?? ACCOUNT_ID;
  const createdAt = (overrides.created_at as string | undefined) ?? '2026-01-15T10:00:00.000Z';
  const verificationStatus = (overrides.verification_status as string | undefined) ?? 'pending';
  const item: Record<string, unknown> = {
    ...accountKeys.account(tenant, id),
    entity: 'verify_account',
    gsi1pk: accountKeys.list(tenant, verificationStatus, 0),
    gsi1sk: accountKeys.order(createdAt, id),
    gsi2pk: accountKeys.byAccountNumber(tenant, '123456789'),
    gsi2sk: accountKeys.order(createdAt, id),
    id,
    tenant,
    type: 'status',
    created_at: createdAt,
    updated_at: createdAt,
    account_number: '123456789',
    routing_number: VALID_ROUTING_NUMBER,
    account_holder_name: 'Jane Doe',
    verification_status: 'pending',
    debit_status: 'pending',
    estimated_verification_date: '2026-01-15T00:00:00.000Z',
    control_attempts: 0,
    version: 1,
    ...overrides,
  };
  // Stored sealed, as the repository stores it (docs/data-model.md#field-encryption).
  return { ...item, ...sealedAccountNumber(item.account_number as string, tenant, id) };
}

/** A control account whose statement-code credit was sent (sandbox code `0000`). */
export function storedControlAccount(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return storedAccount({
    type: 'control',
    control_status: 'pending',
    verification_status: 'valid',
    debit_status: 'valid',
    statement_code_hash: hashStatementCode('0000', digestOf('statement-code')),
    statement_code_sent_at: '2026-01-15T12:00:00.000Z',
    ...overrides,
  });
}

/**
 * Puts an item "in the table": GetItem on its key answers it, and an UpdateItem on its key
 * answers `ALL_NEW` as the item with `afterUpdate` applied — a canned answer the test
 * states, not an emulation of update expressions (stateful behaviour is tested against
 * DynamoDB Local in test/integration). Tests assert on what the UpdateItem asked for.
 */
export function givenStored(item: Record<string, unknown>, afterUpdate: Record<string, unknown> = {}): void {
  const Key = { pk: item.pk, sk: item.sk };
  ddb.on(GetCommand, { Key }).resolves({ Item: item });
  ddb.on(UpdateCommand, { Key }).resolves({ Attributes: { ...item, ...afterUpdate } });
}

/** The puts of accounts and verification slots: what a started verification writes. */
export const verificationWrites = () =>
  ddb
    .commandCalls(PutCommand)
    .filter((c) => [ENTITY.verifyAccount, ENTITY.verificationSlot].some((e) => e === c.args[0].input.Item?.entity));

/** Makes a new account's own put fail, after its verification slot was claimed. */
export function accountWriteFails(error: Error): void {
  ddb.on(PutCommand, { Item: { entity: ENTITY.verifyAccount } }).rejects(error);
}

/** Calls of one command whose Key's pk starts with a prefix (tells alias reads from account reads). */
export function getCallsFor(pkPrefix: string) {
  return ddb.commandCalls(GetCommand).filter((call) => String(call.args[0].input.Key?.pk).startsWith(pkPrefix));
}

/** GetItem calls other than the tenant-alias and tenant-settings lookups. */
export const accountGets = () =>
  ddb.commandCalls(GetCommand).filter((c) => !/^(CLIENT|TENANT)#/.test(String(c.args[0].input.Key?.pk)));

export const ERROR_BODY_KEYS = ['error_code', 'message', 'request_id', 'details'];
