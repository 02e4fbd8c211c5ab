import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { CONSUMERS, deployedRoutes, ROUTES } from '../../lib/service';
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
 * `cipher` the cipher key (fields: SSNs, tax ids, webhook secrets; called directly by the
 * code), `storage` the storage key (table and queues at rest), with the service that must
 * make the call: `via dynamodb` (reading or writing the table: DynamoDB decrypts the table
 * key with the caller's permission), `via sqs` (receiving: Decrypt; sending: also
 * GenerateDataKey for a new data key), and plain `storage` for reading the table stream.
 */
const TABLE = { 'kms:Decrypt': ['storage via dynamodb'] };
const TABLE_AND_CIPHER_ENCRYPT = { ...TABLE, 'kms:Encrypt': ['cipher'] };
const EXPECTED_KMS_GRANTS: Record<string, Record<string, string[]>> = {
  // Routes: every one reads the table (tenant alias, rate-limit bucket); some encrypt or decrypt a field.
  CreateVerifyAccount: TABLE_AND_CIPHER_ENCRYPT,
  ListVerifyAccounts: TABLE,
  GetVerifyAccount: TABLE,
  VerifyAccountControl: TABLE,
  VerifyAccountDebits: TABLE,
  CreatePerson: TABLE_AND_CIPHER_ENCRYPT,
  ListPersons: TABLE,
  GetPerson: TABLE,
  UpdatePerson: TABLE_AND_CIPHER_ENCRYPT,
  ReplacePerson: TABLE_AND_CIPHER_ENCRYPT,
  UpsertPerson: TABLE_AND_CIPHER_ENCRYPT,
  ClosePerson: TABLE,
  ListEvents: TABLE,
  GetEvent: TABLE,
  // Fans the event out again: one message per configuration to the webhook-deliveries queue.
  RedeliverEvent: {
    'kms:Decrypt': ['storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  InvokeWebhook: TABLE,
  CreateWebhookConfiguration: TABLE,
  ListWebhookConfigurations: TABLE,
  ReplaceWebhookConfiguration: TABLE,
  DeleteWebhookConfiguration: TABLE,
  // Rotation encrypts the new secret and moves the old ciphertext as it is.
  CreateWebhookSecret: TABLE_AND_CIPHER_ENCRYPT,
  GetWebhookSecret: { 'kms:Decrypt': ['cipher', 'storage via dynamodb'] },
  // Reads the stream, the table, and sends to four queues plus its on-failure store.
  StreamRouter: {
    'kms:Decrypt': ['storage', 'storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // Receives from its queue; decrypts the SSN or tax id it verifies ownership with.
  VerificationWorker: { 'kms:Decrypt': ['cipher', 'storage via dynamodb', 'storage via sqs'] },
  StatementCodeExpiry: TABLE,
  IdentificationWorker: { 'kms:Decrypt': ['cipher', 'storage via dynamodb', 'storage via sqs'] },
  ScreeningWorker: { 'kms:Decrypt': ['storage via dynamodb', 'storage via sqs'] },
  // Sends each name of the list to the screening queue.
  DailyRescreen: {
    'kms:Decrypt': ['storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // Receives a delivery, decrypts the signing secrets, sends its own retry.
  WebhookDeliveryWorker: {
    'kms:Decrypt': ['cipher', 'storage via dynamodb', 'storage via sqs'],
    'kms:GenerateDataKey': ['storage via sqs'],
  },
  // The custom-resource provider that writes the tenant aliases and settings.
  TenantRecordsProvider: TABLE,
};

/** Every role that runs code of the stack, by the name EXPECTED_KMS_GRANTS uses. */
const roles = new Map<string, IRole>([
  ...[...stack.functions, ...stack.pipeline.consumers].map(([id, fn]) => [id, fn.role] as const),
  ['TenantRecordsProvider', stack.tenantAliases.role!],
]);
const roleId = (role: IRole) => stack.getLogicalId(role.node.defaultChild as CfnElement);

/** A KMS statement's key and condition as EXPECTED_KMS_GRANTS names them; anything unforeseen stays visible as JSON. */
function grantName(statement: Statement & { Condition?: unknown }): string {
  const key =
    Object.entries(keys).find(([, id]) => refId(statement.Resource) === id)?.[0] ?? JSON.stringify(statement.Resource);
  if (statement.Condition === undefined) return key;
  for (const service of ['dynamodb', 'sqs']) {
    const via = { StringEquals: { 'kms:ViaService': viaService(service) } };
    if (JSON.stringify(statement.Condition) === JSON.stringify(via)) return `${key} via ${service}`;
  }
  return `${key} if ${JSON.stringify(statement.Condition)}`;
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
  it('pin every role that runs code: each deployed route, each consumer and the tenant-records provider', () => {
    const ids = [...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id);
    expect([...roles.keys()].sort()).toEqual([...ids, 'TenantRecordsProvider'].sort());
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

  it('no role may use the alarm topic key, and no KMS action beyond Decrypt, Encrypt and GenerateDataKey appears', () => {
    const statements = everyPolicy.flatMap((p) => p.PolicyDocument.Statement as Statement[]);
    const kms = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')));
    for (const statement of kms) expect(refId(statement.Resource)).not.toBe(keys.alarms);
    expect([...new Set(actionsOf(kms))].sort()).toEqual(['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey']);
  });
});
