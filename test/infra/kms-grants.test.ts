import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import {
  CONSUMERS,
  type ConsumerDefinition,
  deployedRoutes,
  ROUTES,
  type RouteDefinition,
  tableAccessOf,
  takesIdempotencyKey,
} from '#lib/service/index';
import { splitTenantAccess } from '#lib/service/tenant-access';
import {
  actionsOf,
  buildApp,
  kmsKeyIds,
  propsOf,
  refId,
  resourcesOf,
  type Statement,
  statementsOfRole,
  viaService,
} from './harness';

const { stack } = buildApp();
const template = Template.fromStack(stack);
const keys = kmsKeyIds(template);

/**
 * Every role of the stack that may use a KMS key, and exactly which actions on which key.
 * A function's grants are derived here from its row (what it reads, digests, opens,
 * encrypts and sends), with what each kind of function adds, so adding a route needs no
 * line here; the derivation is this file's own (it never calls the stack's grant helpers),
 * so a wrong wiring of the stack still fails. The roles that have no row, and a few worked
 * examples, are written out by hand. Names: `cipher for <purposes>` the cipher key (fields:
 * SSNs, tax ids, webhook secrets, and the data keys: digest key, field key; called directly
 * by the code), only under those purposes of the encryption context; `storage` the storage
 * key (table and queues at rest), with the service that must make the call: `via dynamodb`
 * (reading or writing the table: DynamoDB decrypts the table key with the caller's
 * permission), `via sqs` (receiving: Decrypt; sending: also GenerateDataKey for a new data
 * key), and plain `storage` for reading the table stream.
 */
const TABLE = { 'kms:Decrypt': ['storage via dynamodb'] };
/** The digest key, decrypted once per container (docs/data-model.md#digests). */
const DIGEST = 'cipher for digest-key';
/** The field key, decrypted once per container (docs/data-model.md#field-encryption). */
const FIELD = 'cipher for field-key';
/** Receiving from a queue: its messages decrypted through SQS. */
const QUEUE_RECEIVE = { 'kms:Decrypt': ['storage via sqs'] };
/** Sending to a queue (a row's `sendsTo`, a stream consumer's on-failure store): a new data key too. */
const QUEUE_SEND = { 'kms:Decrypt': ['storage via sqs'], 'kms:GenerateDataKey': ['storage via sqs'] };
/** Reading the table stream, which the storage key encrypts (not through DynamoDB's own call). */
const STREAM_READ = { 'kms:Decrypt': ['storage'] };

/** What a function's role must allow on the keys, from its row. */
function expectedKmsGrantsOf(row: RouteDefinition | ConsumerDefinition): Record<string, string[]> {
  const isRoute = 'method' in row;
  const { encrypt = [], decrypt = [] } = row.cipher ?? {};
  const forPurposes = (purposes: readonly string[]) => `cipher for ${[...new Set(purposes)].sort().join(', ')}`;
  return together(
    // Every route reads the tenant alias; a consumer only with a table access its own role
    // holds (a function that acts for one tenant reaches tenants' records with its tenant
    // role, which has its own use of the key: see below).
    isRoute || ownTableAccess(row).some((access) => access.actions.length + (access.indexes?.length ?? 0) > 0)
      ? TABLE
      : {},
    // The HTTP stack keys and fingerprints the idempotency record with keyed digests.
    row.digestKey || (isRoute && takesIdempotencyKey(row)) ? { 'kms:Decrypt': [DIGEST] } : {},
    row.fieldKey ? { 'kms:Decrypt': [FIELD] } : {},
    encrypt.length > 0 ? { 'kms:Encrypt': [forPurposes(encrypt)] } : {},
    decrypt.length > 0 ? { 'kms:Decrypt': [forPurposes(decrypt)] } : {},
    (row.sendsTo ?? []).length > 0 ? QUEUE_SEND : {},
    !isRoute && row.source.kind === 'queue' ? QUEUE_RECEIVE : {},
    !isRoute && row.source.kind === 'table-stream' ? together(STREAM_READ, QUEUE_SEND) : {},
  );
}

/** The table accesses on a function's own role: all, or those to records of no tenant (lib/service/tenant-access.ts). */
const ownTableAccess = (row: RouteDefinition | ConsumerDefinition) =>
  splitTenantAccess(tableAccessOf(row), row.crossTenant === undefined).own;

/** Several grants as one role's: each action with every grant any of them names, once, sorted. */
function together(...parts: Record<string, string[]>[]): Record<string, string[]> {
  const merged: Record<string, Set<string>> = {};
  for (const part of parts) {
    for (const [action, grants] of Object.entries(part))
      merged[action] = new Set([...(merged[action] ?? []), ...grants]);
  }
  return Object.fromEntries(Object.entries(merged).map(([action, grants]) => [action, [...grants].sort()]));
}

/** Every deployed function's row by id. */
const rowsById = new Map<string, RouteDefinition | ConsumerDefinition>(
  [...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => [row.id, row]),
);

/** The roles that run code of the stack without a row of the service. */
const ROLES_WITHOUT_A_ROW: Record<string, Record<string, string[]>> = {
  // The custom-resource provider that writes the tenant aliases and settings.
  TenantRecordsProvider: TABLE,
  // Has KMS generate the digest key at the first deploy, and sees only its ciphertext.
  DigestKeyGenerator: { 'kms:GenerateDataKeyWithoutPlaintext': [DIGEST] },
  // The same for the field key, under its own purpose only.
  FieldKeyGenerator: { 'kms:GenerateDataKeyWithoutPlaintext': [FIELD] },
};

/**
 * Worked examples of the derivation, written out in full: if the derivation and the stack
 * ever agree on something wrong, these still tell. Not one per route.
 */
const WORKED_EXAMPLES: Record<string, Record<string, string[]>> = {
  // A POST (digest key for its idempotency record) that stores an account number (field
  // key) and encrypts the owner's SSN or tax id.
  CreateVerifyAccount: {
    'kms:Decrypt': [DIGEST, FIELD, 'storage via dynamodb'],
    'kms:Encrypt': ['cipher for ownership'],
  },
  // A GET that decrypts webhook signing secrets and nothing else: no digest key, no field key.
  GetWebhookSecret: { 'kms:Decrypt': ['cipher for webhook_signing_secret', 'storage via dynamodb'] },
  // Reads the stream, and sends to five queues plus its on-failure store; opens an
  // account's number from its image and seals it in the event it records. The table only
  // under its tenant role.
  StreamRouter: {
    'kms:Decrypt': [FIELD, 'storage', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // Receives from its queue; decrypts the SSN or tax id it verifies ownership with; stores
  // the statement code as its keyed digest; asks the bank about the opened account number.
  // The table only under its tenant role.
  VerificationWorker: {
    'kms:Decrypt': [DIGEST, FIELD, 'cipher for ownership', 'storage via sqs'],
  },
  // Sends one message per screening shard to the screening queue; reads no table.
  DailyRescreen: {
    'kms:Decrypt': ['storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
};

/** Every role that runs code of the stack, by its row's id or its name in ROLES_WITHOUT_A_ROW. */
const roles = new Map<string, IRole>([
  ...[...stack.functions, ...stack.pipeline.consumers].map(([id, fn]) => [id, fn.role] as const),
  ['TenantRecordsProvider', stack.tenantRecords.role!],
  ['DigestKeyGenerator', stack.digestKey.generator.role],
  ['FieldKeyGenerator', stack.fieldKey.generator.role],
]);
const roleId = (role: IRole) => stack.getLogicalId(role.node.defaultChild as CfnElement);

/** A KMS statement's key and condition as the expectations name them; anything unforeseen stays visible as JSON. */
function grantName(statement: Statement & { Condition?: unknown }): string {
  const key =
    Object.entries(keys).find(([, id]) => refId(statement.Resource) === id)?.[0] ?? JSON.stringify(statement.Resource);
  if (statement.Condition === undefined) return key;
  const purposes = purposesOf(statement.Condition);
  if (purposes) return `${key} for ${purposes.join(', ')}`;
  for (const service of ['dynamodb', 'sqs']) {
    const via = { StringEquals: { 'kms:ViaService': viaService(service) } };
    if (JSON.stringify(statement.Condition) === JSON.stringify(via)) return `${key} via ${service}`;
  }
  return `${key} if ${JSON.stringify(statement.Condition)}`;
}

/** The purposes a `StringEquals` on `kms:EncryptionContext:purpose` (and nothing else) allows. */
function purposesOf(condition: unknown): string[] | undefined {
  if (typeof condition !== 'object' || condition === null || Object.keys(condition).length !== 1) return undefined;
  const equals = (condition as { StringEquals?: Record<string, unknown> }).StringEquals;
  if (!equals || Object.keys(equals).length !== 1) return undefined;
  const purposes = equals['kms:EncryptionContext:purpose'];
  return purposes === undefined ? undefined : [purposes].flat().map(String).sort();
}

/** The KMS actions a role allows, each with the grants (key and condition) it is allowed under, sorted. */
function kmsGrantsOf(statements: Statement[]): Record<string, string[]> {
  const grants: Record<string, string[]> = {};
  for (const statement of statements) {
    for (const action of actionsOf([statement]).filter((a) => a.startsWith('kms:'))) {
      expect(statement.Effect, action).toBe('Allow');
      grants[action] = [...(grants[action] ?? []), grantName(statement)].sort();
    }
  }
  return grants;
}

describe('KMS grants, role by role', () => {
  it('every role that runs code is a deployed route, a consumer or one of the roles without a row', () => {
    expect([...roles.keys()].sort()).toEqual([...rowsById.keys(), ...Object.keys(ROLES_WITHOUT_A_ROW)].sort());
  });

  it.each([...rowsById.keys()])('%s may use exactly the KMS actions its row declares, on exactly those keys', (id) => {
    const role = roles.get(id);
    if (!role) throw new Error(`the stack has no role for ${id}`);
    expect(kmsGrantsOf(statementsOfRole(template, roleId(role)))).toEqual(
      expectedKmsGrantsOf(rowsById.get(id) as RouteDefinition | ConsumerDefinition),
    );
  });

  it.each(
    [...stack.functions, ...stack.pipeline.consumers].flatMap(([id, fn]) =>
      fn.tenantRole ? [[id, fn.tenantRole] as const] : [],
    ),
  )("%s's tenant role may use the storage key through DynamoDB, and no other key or action", (_, role) => {
    expect(kmsGrantsOf(statementsOfRole(template, roleId(role)))).toEqual(TABLE);
  });

  it.each(Object.entries(ROLES_WITHOUT_A_ROW))(
    '%s (no row) may use exactly these KMS actions on exactly these keys',
    (id, expected) => {
      const role = roles.get(id);
      if (!role) throw new Error(`the stack has no role for ${id}`);
      expect(kmsGrantsOf(statementsOfRole(template, roleId(role)))).toEqual(expected);
    },
  );

  it.each(Object.entries(WORKED_EXAMPLES))(
    '%s, written out: the derivation and the stack both give it',
    (id, grants) => {
      const role = roles.get(id);
      if (!role) throw new Error(`the stack has no role for ${id}`);
      expect(expectedKmsGrantsOf(rowsById.get(id) as RouteDefinition | ConsumerDefinition)).toEqual(grants);
      expect(kmsGrantsOf(statementsOfRole(template, roleId(role)))).toEqual(grants);
    },
  );
});

describe('KMS grants, stack-wide', () => {
  const everyPolicy = Object.entries(resourcesOf(template, 'AWS::IAM::Policy')).map(([id, p]) => propsOf(p, id));

  it('only the roles above hold any KMS permission', () => {
    const pinned = new Set([...roles.values()].map(roleId));
    const holders = everyPolicy
      .filter((p) => actionsOf(p.PolicyDocument.Statement).some((a) => a.startsWith('kms:')))
      .flatMap((p) => (p.Roles as unknown[]).map(refId));
    expect(holders.length).toBeGreaterThan(0);
    for (const holder of holders) expect(pinned.has(holder!), holder).toBe(true);
  });

  it('no role may use the alarm topic key, and no KMS action beyond Decrypt, Encrypt and GenerateDataKey(WithoutPlaintext) appears', () => {
    const statements = everyPolicy.flatMap((p) => p.PolicyDocument.Statement as Statement[]);
    const kms = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')));
    for (const statement of kms) expect(refId(statement.Resource)).not.toBe(keys.alarms);
    expect([...new Set(actionsOf(kms))].sort()).toEqual([
      'kms:Decrypt',
      'kms:Encrypt',
      'kms:GenerateDataKey',
      'kms:GenerateDataKeyWithoutPlaintext',
    ]);
  });

  it('conditions every grant on the cipher key on the purpose in the encryption context, and on nothing else', () => {
    const statements = everyPolicy.flatMap(
      (p) => p.PolicyDocument.Statement as (Statement & { Condition?: unknown })[],
    );
    const onCipherKey = statements.filter(
      (s) => refId(s.Resource) === keys.cipher && actionsOf([s]).some((a) => a.startsWith('kms:')),
    );
    expect(onCipherKey.length).toBeGreaterThan(0);
    for (const statement of onCipherKey) {
      const purposes = purposesOf(statement.Condition);
      expect(purposes, JSON.stringify(statement)).toBeDefined();
      expect(purposes?.length, JSON.stringify(statement)).toBeGreaterThan(0);
    }
  });

  /** The purposes under which a role may decrypt with the cipher key. */
  const decryptablePurposes = (id: string) =>
    statementsOfRole(template, roleId(roles.get(id)!))
      .filter((s) => refId(s.Resource) === keys.cipher && actionsOf([s]).includes('kms:Decrypt'))
      .flatMap((s) => purposesOf((s as { Condition?: unknown }).Condition) ?? ['<any purpose>']);

  it('GetWebhookSecret can decrypt webhook signing secrets only: no SSN, no tax id, no data key', () => {
    expect(decryptablePurposes('GetWebhookSecret')).toEqual(['webhook_signing_secret']);
  });

  it('WebhookDeliveryWorker can decrypt webhook signing secrets and the field key (the accounts it sends) only: no SSN, no tax id, not the digest key', () => {
    expect(decryptablePurposes('WebhookDeliveryWorker').sort()).toEqual(['field-key', 'webhook_signing_secret']);
  });

  it('only the identification worker can decrypt a person’s SSN, and only the functions that settle a verification (the worker, and the end of a return window on real rails) an owner’s SSN or tax id', () => {
    const ids = [...roles.keys()];
    expect(ids.filter((id) => decryptablePurposes(id).includes('ssn'))).toEqual(['IdentificationWorker']);
    expect(ids.filter((id) => decryptablePurposes(id).includes('ownership')).sort()).toEqual([
      'BankReturnWindows',
      'VerificationWorker',
    ]);
  });
});
