import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TENANT_ALIAS_RESOURCE_TYPE, TENANT_SETTINGS_RESOURCE_TYPE } from '#lib/constructs/tenant-records';
import { ENTITY, keys } from '#shared/db/keys';
import {
  actionsOf,
  buildApp,
  kmsKeyIds,
  propsOf,
  ref,
  refId,
  resourcesOf,
  sdkCall,
  statementsOfRole,
  synthTemplate,
  viaService,
} from '../harness';

type Template = ReturnType<typeof synthTemplate>;

/** The item `TenantRepository.putSettings` writes (and `kycModeOf` reads), as DynamoDB attribute values. */
const settingsItem = (tenant: string, kycMode: string) => ({
  pk: { S: keys.tenantSettings(tenant).pk },
  sk: { S: keys.tenantSettings(tenant).sk },
  entity: { S: ENTITY.tenantSettings },
  tenant: { S: tenant },
  version: { N: '1' },
  kyc_mode: { S: kycMode },
});
const settingsKey = (tenant: string) => ({
  pk: { S: keys.tenantSettings(tenant).pk },
  sk: { S: keys.tenantSettings(tenant).sk },
});

const settingsResources = (template: Template) => resourcesOf(template, TENANT_SETTINGS_RESOURCE_TYPE);
/** The settings resources whose put writes this tenant's key. */
const settingsOf = (template: Template, tenant: string) =>
  Object.entries(settingsResources(template)).filter(
    ([, r]) => sdkCall(r.Properties?.Create).parameters.Item.pk.S === keys.tenantSettings(tenant).pk,
  );
const tableIdOf = (template: Template) => Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'))[0]!;
/** Logical ids of the functions that serve resources of these types (their ServiceToken). */
const providerIdsOf = (template: Template, ...types: string[]) => [
  ...new Set(
    types.flatMap((type) => Object.values(resourcesOf(template, type)).map((r) => refId(r.Properties?.ServiceToken)!)),
  ),
];
const roleOfFunction = (template: Template, functionId: string) =>
  refId(resourcesOf(template, 'AWS::Lambda::Function')[functionId]!.Properties!.Role)!;

describe('tenant settings from context partners[].kycMode (Cognito mode)', () => {
  const partners = [{ name: 'acme', kycMode: 'byo' }, { name: 'globex', kycMode: 'service' }, { name: 'initech' }];
  const template = synthTemplate({ context: { partners } });
  const tableId = tableIdOf(template);

  it('are one resource per partner that names a KYC mode, and none for a partner that does not', () => {
    expect(Object.keys(settingsResources(template))).toHaveLength(2);
    expect(settingsOf(template, 'acme')).toHaveLength(1);
    expect(settingsOf(template, 'globex')).toHaveLength(1);
    expect(settingsOf(template, 'initech')).toEqual([]);
  });

  it.each([
    ['acme', 'byo'],
    ['globex', 'service'],
  ])(
    '%s: create and update put exactly the settings item TENANT#<name>/SETTINGS with kyc_mode %s; delete removes that key',
    (tenant, kycMode) => {
      const [[, resource]] = settingsOf(template, tenant) as [[string, any]];
      const create = sdkCall(resource.Properties?.Create);
      expect(create).toEqual({
        service: 'DynamoDB',
        action: 'PutItem',
        parameters: { TableName: ref(tableId), Item: settingsItem(tenant, kycMode) },
        physicalResourceId: { id: keys.tenantSettings(tenant).pk },
      });
      expect(sdkCall(resource.Properties?.Update)).toEqual(create);
      expect(sdkCall(resource.Properties?.Delete)).toEqual({
        service: 'DynamoDB',
        action: 'DeleteItem',
        parameters: { TableName: ref(tableId), Key: settingsKey(tenant) },
      });
      expect(resource.Properties?.InstallLatestAwsSdk).toBe(false);
    },
  );

  it("keep their logical id when a partner's KYC mode changes, so the record is rewritten in place", () => {
    const changed = synthTemplate({ context: { partners: [{ name: 'acme', kycMode: 'service' }] } });
    const [[changedId, resource]] = settingsOf(changed, 'acme') as [[string, any]];
    expect(changedId).toBe(settingsOf(template, 'acme')[0]![0]);
    expect(sdkCall(resource.Properties?.Create).parameters.Item.kyc_mode).toEqual({ S: 'service' });
  });

  it('are served by the same provider function as the alias records', () => {
    expect(providerIdsOf(template, TENANT_ALIAS_RESOURCE_TYPE, TENANT_SETTINGS_RESOURCE_TYPE)).toHaveLength(1);
  });

  it('wait for the provider role and its policy before writing', () => {
    const roleId = roleOfFunction(template, providerIdsOf(template, TENANT_SETTINGS_RESOURCE_TYPE)[0]!);
    const [policyId] = Object.entries(resourcesOf(template, 'AWS::IAM::Policy')).find(([id, p]) =>
      (propsOf(p, id).Roles as unknown[]).some((r) => refId(r) === roleId),
    )!;
    for (const resource of Object.values(settingsResources(template))) {
      expect(resource.DependsOn).toEqual(expect.arrayContaining([roleId, policyId]));
    }
  });

  it('are not written when no partner names a KYC mode (cdk.json): tenants then follow context kycMode', () => {
    expect(settingsResources(synthTemplate())).toEqual({});
  });
});

describe('tenant settings from context partners[].rateLimit', () => {
  const partners = [
    { name: 'acme', rateLimit: { ratePerSecond: 200, burst: 400 } },
    { name: 'globex', kycMode: 'byo', rateLimit: { ratePerSecond: '2.5', burst: '5' } },
    { name: 'initech' },
  ];
  const template = synthTemplate({ context: { partners } });
  const itemOf = (tenant: string) => {
    const [[, resource]] = settingsOf(template, tenant) as [[string, any]];
    return sdkCall(resource.Properties?.Create).parameters.Item;
  };

  it('write the rate and burst TenantRepository.ratePolicyOf reads, beside the KYC mode when there is one', () => {
    expect(Object.keys(settingsResources(template))).toHaveLength(2);
    const { kyc_mode, ...acme } = itemOf('acme');
    expect(kyc_mode).toBeUndefined();
    expect(acme).toEqual({
      ...settingsKey('acme'),
      entity: { S: ENTITY.tenantSettings },
      tenant: { S: 'acme' },
      version: { N: '1' },
      rate_per_second: { N: '200' },
      burst: { N: '400' },
    });
    expect(itemOf('globex')).toMatchObject({
      kyc_mode: { S: 'byo' },
      rate_per_second: { N: '2.5' },
      burst: { N: '5' },
    });
    expect(settingsOf(template, 'initech')).toEqual([]);
  });

  it.each([
    [{ ratePerSecond: 10 }, /partners"\[0\]\.rateLimit must be \{ ratePerSecond, burst \}/],
    [{ ratePerSecond: 0, burst: 5 }, /rateLimit\.ratePerSecond must be a positive number/],
    [{ ratePerSecond: 10, burst: 1.5 }, /rateLimit\.burst must be a whole number/],
    ['fast', /rateLimit must be \{ ratePerSecond, burst \}/],
  ])('refuse %j, naming the field', (rateLimit, message) => {
    expect(() => synthTemplate({ context: { partners: [{ name: 'acme', rateLimit }] } })).toThrow(message);
  });
});

describe('list shards from context partners[].listShards', () => {
  const functionsOf = (template: Template) =>
    Object.values(resourcesOf(template, 'AWS::Lambda::Function') as Record<string, any>).filter(
      (fn) => fn.Properties.Environment?.Variables?.TABLE_NAME,
    );

  it('reach every function that reads the table as TENANT_LIST_SHARDS, naming only the sharded tenants', () => {
    const template = synthTemplate({
      context: { partners: [{ name: 'acme', listShards: 8 }, { name: 'globex', listShards: 1 }, { name: 'initech' }] },
    });
    const functions = functionsOf(template);
    expect(functions.length).toBeGreaterThan(20);
    for (const fn of functions) {
      expect(JSON.parse(fn.Properties.Environment.Variables.TENANT_LIST_SHARDS)).toEqual({ acme: 8, globex: 1 });
    }
  });

  it('are absent when no partner names a count (every tenant then has one shard)', () => {
    for (const fn of functionsOf(synthTemplate())) {
      expect(fn.Properties.Environment.Variables.TENANT_LIST_SHARDS).toBeUndefined();
    }
  });

  it.each([0, 33, 2.5, '8'])('refuse listShards %j, naming the field', (listShards) => {
    expect(() => synthTemplate({ context: { partners: [{ name: 'acme', listShards }] } })).toThrow(
      /partners"\[0\]\.listShards must be an integer from 1 to 32/,
    );
  });
});

describe('tenant settings with an external issuer', () => {
  const issuer = 'https://login.example.com/oauth2/default';
  // No client ids: the partner's settings alone make the stack create the provider.
  const template = synthTemplate({
    context: { jwtIssuer: issuer, jwtAudience: 'api://verify', partners: [{ name: 'acme', kycMode: 'byo' }] },
  });

  it('are written for a partner without client ids, with no alias record', () => {
    expect(resourcesOf(template, TENANT_ALIAS_RESOURCE_TYPE)).toEqual({});
    const [[, resource]] = settingsOf(template, 'acme') as [[string, any]];
    expect(sdkCall(resource.Properties?.Create).parameters.Item).toEqual(settingsItem('acme', 'byo'));
  });

  it("run with a provider role that may only put and delete the table's CLIENT# and TENANT# items (decrypting the table key through DynamoDB), is denied screening entries, and writes its own log group", () => {
    const [providerId] = providerIdsOf(template, TENANT_SETTINGS_RESOURCE_TYPE) as [string];
    const provider = resourcesOf(template, 'AWS::Lambda::Function')[providerId]!.Properties!;
    const roleId = roleOfFunction(template, providerId);
    expect(resourcesOf(template, 'AWS::IAM::Role')[roleId]?.Properties?.ManagedPolicyArns).toBeUndefined();
    const logGroupId = refId(provider.LoggingConfig.LogGroup)!;
    expect(statementsOfRole(template, roleId)).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
      },
      {
        Effect: 'Allow',
        Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem'],
        Resource: { 'Fn::GetAtt': [tableIdOf(template), 'Arn'] },
        // Both prefixes even with settings only: removing the last record of a kind must
        // still be allowed after CloudFormation has updated this policy.
        // The key must be present: ForAllValues alone holds for a request without one.
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CLIENT#*', 'TENANT#*'] },
          Null: { 'dynamodb:LeadingKeys': 'false' },
        },
      },
      {
        // The table is encrypted with the storage key: DynamoDB decrypts its table key with the writer's permission.
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [kmsKeyIds(template).storage, 'Arn'] },
        Condition: { StringEquals: { 'kms:ViaService': viaService('dynamodb') } },
      },
      {
        // Screening entries are not its to write: denied whatever else it is allowed.
        Effect: 'Deny',
        Action: [
          'dynamodb:BatchWriteItem',
          'dynamodb:DeleteItem',
          'dynamodb:PartiQLDelete',
          'dynamodb:PartiQLInsert',
          'dynamodb:PartiQLUpdate',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ],
        Resource: { 'Fn::GetAtt': [tableIdOf(template), 'Arn'] },
        Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['SCREEN#*'] } },
      },
    ]);
    const allowed = statementsOfRole(template, roleId).filter((s) => s.Effect === 'Allow');
    expect(actionsOf(allowed)).not.toContain('dynamodb:UpdateItem');
  });

  it('refuse two settings records for one tenant', () => {
    const twice = [
      { name: 'acme', kycMode: 'byo' },
      { name: 'acme', kycMode: 'service' },
    ];
    expect(() => buildApp({ context: { jwtIssuer: issuer, jwtAudience: 'a', partners: twice } })).toThrow(
      /tenant "acme" has two settings records/,
    );
  });

  it('pass cdk-nag with no acknowledgment beyond the existing ones', () => {
    const { app } = buildApp({
      nag: true,
      context: { jwtIssuer: issuer, jwtAudience: 'api://verify', partners: [{ name: 'acme', kycMode: 'byo' }] },
    });
    const report = JSON.parse(readFileSync(join(app.synth().directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: { severity: string }[] }[];
    };
    expect(report.pluginReports.flatMap((r) => r.violations).filter((v) => v.severity === 'error')).toEqual([]);
  });
});
