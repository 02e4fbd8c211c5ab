import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { CONSUMERS, deployedRoutes, ROUTES } from '#lib/service/index';
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
 * Every role of the stack that may use a KMS key, and exactly which actions on which key,
 * written out by hand so that any change of a grant fails here and is reviewed. Names:
 * `cipher for <purposes>` the cipher key (fields: SSNs, tax ids, webhook secrets, and the
 * data keys: digest key, field key; called directly by the code), only under those purposes of the encryption
 * context; `storage` the storage key (table and queues at rest), with the service that must
 * make the call: `via dynamodb` (reading or writing the table: DynamoDB decrypts the table
 * key with the caller's permission), `via sqs` (receiving: Decrypt; sending: also
 * GenerateDataKey for a new data key), and plain `storage` for reading the table stream.
 */
const TABLE = { 'kms:Decrypt': ['storage via dynamodb'] };
/** The digest key, decrypted once per container (docs/data-model.md#digests). */
const DIGEST = 'cipher for digest-key';
/** The field key, decrypted once per container (docs/data-model.md#field-encryption). */
const FIELD = 'cipher for field-key';
const TABLE_AND_DIGEST = { 'kms:Decrypt': [DIGEST, 'storage via dynamodb'] };
const TABLE_AND_FIELD = { 'kms:Decrypt': [FIELD, 'storage via dynamodb'] };
const TABLE_DIGEST_AND_FIELD = { 'kms:Decrypt': [DIGEST, FIELD, 'storage via dynamodb'] };
const encrypting = (purpose: string) => ({ ...TABLE_AND_DIGEST, 'kms:Encrypt': [`cipher for ${purpose}`] });
const EXPECTED_KMS_GRANTS: Record<string, Record<string, string[]>> = {
  // Routes: every one reads the table (tenant alias, rate-limit bucket); those taking an
  // Idempotency-Key (POST, PATCH, DELETE) or digesting an account number, a reference or a
  // statement code decrypt the digest key; those storing or reading an account number the
  // field key; some encrypt or decrypt a field.
  CreateVerifyAccount: {
    'kms:Decrypt': [DIGEST, FIELD, 'storage via dynamodb'],
    'kms:Encrypt': ['cipher for ownership'],
  },
  ListVerifyAccounts: TABLE_DIGEST_AND_FIELD,
  GetVerifyAccount: TABLE_AND_FIELD,
  VerifyAccountControl: TABLE_DIGEST_AND_FIELD,
  VerifyAccountDebits: TABLE_DIGEST_AND_FIELD,
  CreatePerson: encrypting('ssn'),
  ListPersons: TABLE_AND_DIGEST,
  GetPerson: TABLE,
  UpdatePerson: encrypting('ssn'),
  ReplacePerson: encrypting('ssn'),
  UpsertPerson: encrypting('ssn'),
  ClosePerson: TABLE_AND_DIGEST,
  ListEvents: TABLE_AND_FIELD,
  GetEvent: TABLE_AND_FIELD,
  // Fans the event out again: one message per configuration to the webhook-deliveries queue.
  RedeliverEvent: {
    'kms:Decrypt': [DIGEST, 'storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  InvokeWebhook: TABLE_DIGEST_AND_FIELD,
  CreateWebhookConfiguration: TABLE_AND_DIGEST,
  ListWebhookConfigurations: TABLE,
  ReplaceWebhookConfiguration: TABLE,
  DeleteWebhookConfiguration: TABLE_AND_DIGEST,
  // Rotation encrypts the new secret and moves the old ciphertext as it is.
  CreateWebhookSecret: encrypting('webhook_signing_secret'),
  GetWebhookSecret: { 'kms:Decrypt': ['cipher for webhook_signing_secret', 'storage via dynamodb'] },
  // Reads the stream, the table, and sends to five queues plus its on-failure store; opens
  // an account's number from its image and seals it in the event it records.
  StreamRouter: {
    'kms:Decrypt': [FIELD, 'storage', 'storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // Receives from its queue; decrypts the SSN or tax id it verifies ownership with; stores
  // the statement code as its keyed digest; asks the bank about the opened account number.
  VerificationWorker: {
    'kms:Decrypt': [DIGEST, FIELD, 'cipher for ownership', 'storage via dynamodb', 'storage via sqs'],
  },
  // Receives from its queue; opens the account number whose last four digits the email names.
  StatementCodeEmailWorker: { 'kms:Decrypt': [FIELD, 'storage via dynamodb', 'storage via sqs'] },
  StatementCodeExpiry: TABLE_AND_FIELD,
  IdentificationWorker: { 'kms:Decrypt': ['cipher for ssn', 'storage via dynamodb', 'storage via sqs'] },
  ScreeningWorker: { 'kms:Decrypt': ['storage via dynamodb', 'storage via sqs'] },
  // Sends each name of the list to the screening queue.
  DailyRescreen: {
    'kms:Decrypt': ['storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // Receives a delivery, decrypts the signing secrets, opens the event's account numbers,
  // sends its own retry.
  WebhookDeliveryWorker: {
    'kms:Decrypt': [FIELD, 'cipher for webhook_signing_secret', 'storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // The custom-resource provider that writes the tenant aliases and settings.
  TenantRecordsProvider: TABLE,
  // Has KMS generate the digest key at the first deploy, and sees only its ciphertext.
  DigestKeyGenerator: { 'kms:GenerateDataKeyWithoutPlaintext': [DIGEST] },
  // The same for the field key, under its own purpose only.
  FieldKeyGenerator: { 'kms:GenerateDataKeyWithoutPlaintext': [FIELD] },
};

/** Every role that runs code of the stack, by the name EXPECTED_KMS_GRANTS uses. */
const roles = new Map<string, IRole>([
  ...[...stack.functions, ...stack.pipeline.consumers].map(([id, fn]) => [id, fn.role] as const),
  ['TenantRecordsProvider', stack.tenantRecords.role!],
  ['DigestKeyGenerator', stack.digestKey.generator.role],
  ['FieldKeyGenerator', stack.fieldKey.generator.role],
]);
const roleId = (role: IRole) => stack.getLogicalId(role.node.defaultChild as CfnElement);

/** A KMS statement's key and condition as EXPECTED_KMS_GRANTS names them; anything unforeseen stays visible as JSON. */
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
  it('pin every role that runs code: each deployed route, each consumer, the tenant-records provider and the data-key generators', () => {
    const ids = [...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id);
    expect([...roles.keys()].sort()).toEqual(
      [...ids, 'TenantRecordsProvider', 'DigestKeyGenerator', 'FieldKeyGenerator'].sort(),
    );
    expect(Object.keys(EXPECTED_KMS_GRANTS).sort()).toEqual([...roles.keys()].sort());
  });

  it.each(Object.entries(EXPECTED_KMS_GRANTS))(
    '%s may use exactly these KMS actions on exactly these keys',
    (id, expected) => {
      const role = roles.get(id);
      if (!role) throw new Error(`the stack has no role for ${id}`);
      expect(kmsGrantsOf(statementsOfRole(template, roleId(role)))).toEqual(expected);
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

  it('only the identification worker can decrypt a person’s SSN, and only the verification worker an owner’s SSN or tax id', () => {
    const ids = [...roles.keys()];
    expect(ids.filter((id) => decryptablePurposes(id).includes('ssn'))).toEqual(['IdentificationWorker']);
    expect(ids.filter((id) => decryptablePurposes(id).includes('ownership'))).toEqual(['VerificationWorker']);
  });
});
