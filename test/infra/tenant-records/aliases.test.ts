import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TENANT_ALIAS_RESOURCE_TYPE } from '#lib/constructs/tenant-records';
import { CONSUMERS, deployedRoutes, ROUTES } from '#lib/service/index';
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

/** The item `TenantRepository.putAlias` writes, as DynamoDB attribute values. */
const aliasItem = (clientId: string, tenant: string) => ({
  pk: { S: keys.tenantAlias(clientId).pk },
  sk: { S: keys.tenantAlias(clientId).sk },
  entity: { S: ENTITY.tenantAlias },
  tenant: { S: tenant },
  version: { N: '1' },
});
const aliasKey = (clientId: string) => ({
  pk: { S: keys.tenantAlias(clientId).pk },
  sk: { S: keys.tenantAlias(clientId).sk },
});

const aliasResources = (template: Template) => resourcesOf(template, TENANT_ALIAS_RESOURCE_TYPE);
/** Alias resources whose put writes the given client id's key. */
const aliasesOf = (template: Template, clientId: string) =>
  Object.entries(aliasResources(template)).filter(
    ([, r]) => sdkCall(r.Properties?.Create).parameters.Item.pk.S === keys.tenantAlias(clientId).pk,
  );
const tableIdOf = (template: Template) => Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'))[0]!;
/** Logical ids of the functions that serve alias resources (their ServiceToken). */
const providerIdsOf = (template: Template) => [
  ...new Set(Object.values(aliasResources(template)).map((r) => refId(r.Properties?.ServiceToken)!)),
];

describe('tenant aliases, Cognito mode', () => {
  const partners = [{ name: 'acme', scopes: ['read:verify-accounts'] }, { name: 'globex' }];
  const template = synthTemplate({ context: { partners } });
  const clients = resourcesOf(template, 'AWS::Cognito::UserPoolClient');
  const clientIdOf = (name: string) => Object.entries(clients).find(([, c]) => c.Properties?.ClientName === name)![0];
  const tableId = tableIdOf(template);

  it('are one resource per partner app client, and no other', () => {
    expect(Object.keys(aliasResources(template))).toHaveLength(partners.length);
    for (const { name } of partners) expect(aliasesOf(template, ref(clientIdOf(name)))).toHaveLength(1);
  });

  it.each(partners.map((p) => [p.name]))(
    '%s: create and update put the alias item CLIENT#<app client id>/ALIAS → partner name; delete removes that key',
    (name) => {
      const clientId = ref(clientIdOf(name));
      const [, resource] = aliasesOf(template, clientId)[0]!;
      const create = sdkCall(resource.Properties?.Create);
      expect(create).toEqual({
        service: 'DynamoDB',
        action: 'PutItem',
        parameters: { TableName: ref(tableId), Item: aliasItem(clientId, name) },
        // The physical id is the key: a replaced app client makes CloudFormation delete the old record.
        physicalResourceId: { id: keys.tenantAlias(clientId).pk },
      });
      expect(sdkCall(resource.Properties?.Update)).toEqual(create);
      expect(sdkCall(resource.Properties?.Delete)).toEqual({
        service: 'DynamoDB',
        action: 'DeleteItem',
        parameters: { TableName: ref(tableId), Key: aliasKey(clientId) },
      });
      expect(resource.Properties?.InstallLatestAwsSdk).toBe(false);
    },
  );

  it('are served by one provider function whose role may only put and delete CLIENT# items (and TENANT# settings items, which the provider also keeps) of the table, is denied screening entries, decrypts the table key through DynamoDB, and logs', () => {
    const providerIds = providerIdsOf(template);
    expect(providerIds).toHaveLength(1);
    const provider = resourcesOf(template, 'AWS::Lambda::Function')[providerIds[0]!]!.Properties!;
    const roleId = refId(provider.Role)!;
    expect(resourcesOf(template, 'AWS::IAM::Role')[roleId]?.Properties?.ManagedPolicyArns).toBeUndefined();

    const statements = statementsOfRole(template, roleId);
    const dynamodb = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('dynamodb:')));
    expect(dynamodb).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem'],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [`${keys.tenantAlias('').pk}*`, `${keys.tenantSettings('').pk}*`],
          },
          Null: { 'dynamodb:LeadingKeys': 'false' },
        },
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
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['SCREEN#*'] } },
      },
    ]);
    // DynamoDB writes the encrypted table with the writer's kms:Decrypt of the table key, and only through DynamoDB.
    const kms = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')));
    expect(kms).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [kmsKeyIds(template).storage, 'Arn'] },
        Condition: { StringEquals: { 'kms:ViaService': viaService('dynamodb') } },
      },
    ]);
    // Everything else is writing to its own log group, kept one month.
    const logGroupId = refId(provider.LoggingConfig.LogGroup)!;
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]?.Properties?.RetentionInDays).toBe(30);
    const others = statements.filter((s) => !dynamodb.includes(s) && !kms.includes(s));
    expect(actionsOf(others).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(others.map((s) => refId(s.Resource))).toEqual([logGroupId]);
  });

  it('wait for the provider role and its policy before writing', () => {
    const roleId = refId(
      resourcesOf(template, 'AWS::Lambda::Function')[providerIdsOf(template)[0]!]!.Properties!.Role,
    )!;
    const [policyId] = Object.entries(resourcesOf(template, 'AWS::IAM::Policy')).find(([id, p]) =>
      (propsOf(p, id).Roles as unknown[]).some((r) => refId(r) === roleId),
    )!;
    for (const resource of Object.values(aliasResources(template))) {
      expect(resource.DependsOn).toEqual(expect.arrayContaining([roleId, policyId]));
    }
  });
});

describe('tenant aliases from context partners[].aliases (Cognito mode)', () => {
  /** acme and globex, with the extra client id `legacy-acme` listed under `owner`. */
  const withAlias = (owner: 'acme' | 'globex') =>
    synthTemplate({
      context: {
        partners: ['acme', 'globex'].map((name) => ({ name, aliases: name === owner ? ['legacy-acme'] : [] })),
      },
    });
  const template = withAlias('acme');

  it('map each extra client id to the same tenant, besides the app client', () => {
    expect(Object.keys(aliasResources(template))).toHaveLength(3);
    const [[, resource]] = aliasesOf(template, 'legacy-acme') as [[string, any]];
    expect(sdkCall(resource.Properties?.Create).parameters.Item).toEqual(aliasItem('legacy-acme', 'acme'));
    expect(sdkCall(resource.Properties?.Delete).parameters.Key).toEqual(aliasKey('legacy-acme'));
  });

  it('keep one logical id per client id, so moving an alias to another partner updates its record in place', () => {
    const moved = withAlias('globex');
    const [[movedId, movedResource]] = aliasesOf(moved, 'legacy-acme') as [[string, any]];
    expect(movedId).toBe(aliasesOf(template, 'legacy-acme')[0]![0]);
    expect(sdkCall(movedResource.Properties?.Create).parameters.Item.tenant).toEqual({ S: 'globex' });
  });
});

describe('tenant aliases with an external issuer (partners[].clientIds)', () => {
  const issuer = 'https://login.example.com/oauth2/default';
  const template = synthTemplate({
    context: {
      jwtIssuer: issuer,
      jwtAudience: 'api://verify',
      partners: [
        { name: 'acme', clientIds: ['0oa1acme', '0oa2acme'] },
        { name: 'globex', clientIds: ['0oa1globex'] },
        { name: 'initech' },
      ],
    },
  });

  it('write one alias item per listed client id, mapping it to its partner; partners without ids get none', () => {
    expect(Object.keys(aliasResources(template))).toHaveLength(3);
    for (const [clientId, tenant] of [
      ['0oa1acme', 'acme'],
      ['0oa2acme', 'acme'],
      ['0oa1globex', 'globex'],
    ] as const) {
      const found = aliasesOf(template, clientId);
      expect(found).toHaveLength(1);
      const props = found[0]![1].Properties!;
      expect(sdkCall(props.Create)).toMatchObject({
        action: 'PutItem',
        parameters: { TableName: ref(tableIdOf(template)), Item: aliasItem(clientId, tenant) },
      });
      expect(sdkCall(props.Update)).toEqual(sdkCall(props.Create));
      expect(sdkCall(props.Delete)).toMatchObject({ action: 'DeleteItem', parameters: { Key: aliasKey(clientId) } });
    }
  });

  it('leave the authorizer audience to jwtAudience', () => {
    const authorizer = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Authorizer'))[0]!;
    expect(authorizer.Properties?.JwtConfiguration.Audience).toEqual(['api://verify']);
  });

  it('create nothing, not even the provider function, when no partner lists a client id', () => {
    const bare = synthTemplate({ context: { jwtIssuer: issuer, jwtAudience: 'api://verify' } });
    expect(aliasResources(bare)).toEqual({});
    // The route and consumer functions, and the generators of the digest key and the field key.
    expect(Object.keys(resourcesOf(bare, 'AWS::Lambda::Function'))).toHaveLength(
      deployedRoutes(ROUTES).length + CONSUMERS.length + 2,
    );
  });

  it('pass cdk-nag with no acknowledgment beyond the existing ones', () => {
    const { app } = buildApp({
      nag: true,
      context: {
        jwtIssuer: issuer,
        jwtAudience: 'api://verify',
        partners: [{ name: 'acme', clientIds: ['0oa1acme'] }],
      },
    });
    const report = JSON.parse(readFileSync(join(app.synth().directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: { severity: string }[] }[];
    };
    expect(report.pluginReports.flatMap((r) => r.violations).filter((v) => v.severity === 'error')).toEqual([]);
  });
});

describe('operator aliases: the mark that lets a client review screening hits (context "operators")', () => {
  /** The item `TenantRepository.putAlias` writes for an operator: its own name as tenant, marked. */
  const operatorItem = (clientId: string, name: string) => ({ ...aliasItem(clientId, name), operator: { BOOL: true } });
  const aliasItems = (template: Template) =>
    Object.values(aliasResources(template)).map((r) => sdkCall(r.Properties?.Create).parameters.Item);

  it('mark an operator’s app client and its aliases, and no partner’s (Cognito mode)', () => {
    const template = synthTemplate({
      context: {
        partners: [{ name: 'acme', aliases: ['legacy-acme'] }, { name: 'globex' }],
        operators: [{ name: 'compliance', aliases: ['rotated-compliance'] }],
      },
    });
    const clients = resourcesOf(template, 'AWS::Cognito::UserPoolClient');
    const clientIdOf = (name: string) =>
      ref(Object.entries(clients).find(([, c]) => c.Properties?.ClientName === name)![0]);

    const items = aliasItems(template);
    expect(items).toHaveLength(5);
    for (const clientId of [clientIdOf('compliance'), 'rotated-compliance']) {
      const [[, resource]] = aliasesOf(template, clientId) as [[string, any]];
      expect(sdkCall(resource.Properties?.Create).parameters.Item).toEqual(operatorItem(clientId, 'compliance'));
      expect(sdkCall(resource.Properties?.Update)).toEqual(sdkCall(resource.Properties?.Create));
    }
    for (const [clientId, tenant] of [
      [clientIdOf('acme'), 'acme'],
      ['legacy-acme', 'acme'],
      [clientIdOf('globex'), 'globex'],
    ] as const) {
      const [[, resource]] = aliasesOf(template, clientId) as [[string, any]];
      expect(sdkCall(resource.Properties?.Create).parameters.Item).toEqual(aliasItem(clientId, tenant));
    }
  });

  it('mark an operator’s client ids at an external issuer, and no partner’s', () => {
    const template = synthTemplate({
      context: {
        jwtIssuer: 'https://login.example.com/oauth2/default',
        jwtAudience: 'api://verify',
        partners: [{ name: 'acme', clientIds: ['0oa1acme'] }],
        operators: [{ name: 'compliance', clientIds: ['0oa1ops'], aliases: ['0oa2ops'] }],
      },
    });

    expect(aliasItems(template)).toHaveLength(3);
    for (const clientId of ['0oa1ops', '0oa2ops']) {
      const [[, resource]] = aliasesOf(template, clientId) as [[string, any]];
      expect(sdkCall(resource.Properties?.Create).parameters.Item).toEqual(operatorItem(clientId, 'compliance'));
    }
    const [[, partner]] = aliasesOf(template, '0oa1acme') as [[string, any]];
    expect(sdkCall(partner.Properties?.Create).parameters.Item).toEqual(aliasItem('0oa1acme', 'acme'));
  });
});
