import { describe, expect, it } from 'vitest';
import { ENV as CONFIG_ENV } from '../../functions/shared/config';
import { TENANT_ALIAS_RESOURCE_TYPE } from '../../lib/constructs/tenant-aliases';
import { ROUTES, type RouteDefinition, routeKey } from '../../lib/service';
import { actionsOf, refId, resourcesOf, statementsOfRole, synthTemplate } from './harness';

const template = synthTemplate();
const functions = resourcesOf(template, 'AWS::Lambda::Function');
const [cipherKeyId] = Object.keys(resourcesOf(template, 'AWS::KMS::Key'));
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));

const functionOf = (route: RouteDefinition) => {
  const found = Object.entries(functions).filter(([, f]) => f.Properties?.Description === routeKey(route));
  expect(found).toHaveLength(1);
  return found[0]![1].Properties!;
};
const statementsOf = (route: RouteDefinition) => statementsOfRole(template, refId(functionOf(route).Role)!);

const TABLE_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const byRoute = ROUTES.map((r) => [routeKey(r), r] as const);

describe('Lambda functions', () => {
  it('are one per route plus the one provider of the tenant-alias custom resources, and no log-retention or other CDK helper function', () => {
    const apiFunctionIds = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Integration')).map((i) =>
      refId(i.Properties?.IntegrationUri),
    );
    expect(new Set(apiFunctionIds).size).toBe(ROUTES.length);
    expect(apiFunctionIds.map((id) => functions[id!]?.Properties?.Description).sort()).toEqual(ROUTES.map(routeKey).sort());
    const providerIds = new Set(
      Object.values(resourcesOf(template, TENANT_ALIAS_RESOURCE_TYPE)).map((r) => refId(r.Properties?.ServiceToken)),
    );
    expect(providerIds.size).toBe(1);
    expect(Object.keys(functions).sort()).toEqual([...apiFunctionIds, ...providerIds].sort());
  });

  it.each(byRoute)('%s runs with the house defaults (Node 24, ARM64, tracing, 512 MB, 10 s, source maps)', (_, route) => {
    const fn = functionOf(route);
    expect(fn).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
      MemorySize: 512,
      Timeout: 10,
      Handler: 'index.handler',
    });
    expect(fn.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
    expect(refId(fn.Environment.Variables[CONFIG_ENV.tableName])).toBe(tableId);
  });

  it.each(byRoute)('%s logs to its own log group, kept one month', (_, route) => {
    const logGroupId = refId(functionOf(route).LoggingConfig.LogGroup)!;
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]?.Properties?.RetentionInDays).toBe(30);
    const logStatements = statementsOf(route).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
    expect(logStatements.map((s) => refId(s.Resource))).toEqual([logGroupId]);
  });

  it.each(byRoute)('%s has a role without AWS managed policies', (_, route) => {
    const role = resourcesOf(template, 'AWS::IAM::Role')[refId(functionOf(route).Role)!];
    expect(role?.Properties?.ManagedPolicyArns).toBeUndefined();
  });

  it.each(byRoute)('%s uses the "*" resource only for X-Ray, which has no resource-level permissions', (_, route) => {
    const wildcard = statementsOf(route).filter((s) => s.Resource === '*' || (s.Resource as unknown[]).includes?.('*'));
    expect(actionsOf(wildcard).sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });
});

describe('table grants follow route.table', () => {
  it.each(byRoute)('%s may use the table only as its route declares', (_, route) => {
    const actions = actionsOf(statementsOf(route));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    if (route.table === 'read') for (const write of TABLE_WRITES) expect(actions).not.toContain(write);
    else expect(actions).toEqual(expect.arrayContaining(TABLE_WRITES));
    for (const s of statementsOf(route).filter((x) => actionsOf([x]).some((a) => a.startsWith('dynamodb:')))) {
      expect(JSON.stringify(s.Resource)).toContain(tableId);
    }
  });
});

describe('cipher key grants follow route.cipher', () => {
  const kmsActionsOf = (route: RouteDefinition) => actionsOf(statementsOf(route)).filter((a) => a.startsWith('kms:'));

  it.each(byRoute)('%s gets exactly the key operation of its route and the key ARN only with it', (_, route) => {
    const expected = { encrypt: ['kms:Encrypt'], decrypt: ['kms:Decrypt'], none: [] }[route.cipher ?? 'none'];
    expect(kmsActionsOf(route)).toEqual(expected);
    const arn = functionOf(route).Environment.Variables[CONFIG_ENV.cipherKeyArn];
    if (route.cipher) expect(refId(arn)).toBe(cipherKeyId);
    else expect(arn).toBeUndefined();
  });

  it('grants a decrypting route kms:Decrypt on the cipher key and nothing else of KMS', () => {
    const reader: RouteDefinition = { ...ROUTES[0]!, id: 'DecryptProbe', method: 'GET', path: '/probe', cipher: 'decrypt', table: 'read' };
    const probe = synthTemplate({ stackProps: { routes: [reader] } });
    const fn = Object.values(resourcesOf(probe, 'AWS::Lambda::Function')).find((f) => f.Properties?.Description === routeKey(reader));
    const kms = statementsOfRole(probe, refId(fn!.Properties!.Role)!).filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')));
    expect(actionsOf(kms)).toEqual(['kms:Decrypt']);
    expect(kms.map((s) => refId(s.Resource))).toEqual(Object.keys(resourcesOf(probe, 'AWS::KMS::Key')));
  });
});
