import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { identityVendorSettingsFromContext } from '#lib/context/identity-vendor';
import { CONSUMERS, IDENTITY_NOTICE_ROUTES, routeKey } from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import { PLAID_ENV } from '#shared/identity-vendor/vendors';
import { actionsOf, buildApp, functionsOf, kmsKeyIds, propsOf, refId, resourcesOf } from './harness';

/** `npx cdk synth -c identityVendor=plaid -c plaidClientId=… -c plaidTemplateId=…` (docs/deploy.md#identity-vendor-plaid). */
const PLAID = {
  identityVendor: 'plaid',
  plaidClientId: '5d8b2f1e9c0a4b3d2e1f0a9b',
  plaidTemplateId: 'idvtmp_52xR9LKo77r1Np',
};
const WORKER = consumerDescription(CONSUMERS.find((c) => c.id === 'IdentificationWorker')!);
const NOTICE = 'POST /identity/notices';

const secretActions = (statements: ReturnType<typeof functionsOf>['functions'][number]['statements']) =>
  actionsOf(statements).filter((action) => action.startsWith('secretsmanager:'));

describe('the rows that call the identity vendor', () => {
  it('are the identification worker and, with a real vendor, its notice route, both reading its secret', () => {
    const rows = [...CONSUMERS, ...IDENTITY_NOTICE_ROUTES].filter((row) => row.identityVendor);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.identityVendor?.secrets]))).toEqual({
      IdentificationWorker: ['apiSecret'],
      IdentityNotice: ['apiSecret'],
    });
    expect(IDENTITY_NOTICE_ROUTES.map(routeKey)).toEqual([NOTICE]);
    expect(IDENTITY_NOTICE_ROUTES[0]).toMatchObject({
      auth: 'provider-signature',
      scopes: [],
      sendsTo: ['identification'],
    });
  });
});

describe('the default identity vendor (sandbox)', () => {
  const { template, monitoring, functions } = functionsOf({});

  it('gives no function any identity vendor setting: an unset IDENTITY_VENDOR is the sandbox vendor, so the default synth is as it was', () => {
    for (const f of functions) {
      for (const name of [CONFIG_ENV.identityVendor, CONFIG_ENV.identityVendorSecretArn, ...Object.values(PLAID_ENV)]) {
        expect(f.variables[name], `${f.description}: ${name}`).toBeUndefined();
      }
    }
  });

  it('creates no secret and no notice route, and outputs no vendor URL', () => {
    expect(resourcesOf(template, 'AWS::SecretsManager::Secret')).toEqual({});
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties?.RouteKey);
    expect(routes).not.toContain(NOTICE);
    expect(Object.keys(template.findOutputs('*'))).not.toContain('IdentityNoticeUrl');
  });

  it('has no stalled-check alarm: the sandbox vendor answers at once', () => {
    const alarms = Object.values(resourcesOf(monitoring, 'AWS::CloudWatch::Alarm')).map((a) => propsOf(a));
    expect(alarms.filter((a) => a.MetricName === 'IdentityCheckStalled')).toEqual([]);
  });
});

describe('-c identityVendor=plaid', () => {
  const { template, monitoring, functions } = functionsOf({ context: PLAID });
  const outputs = template.findOutputs('*');
  const secretId = refId(outputs.IdentityVendorSecretArn?.Value);
  const vendorFunctions = functions.filter((f) => f.variables[CONFIG_ENV.identityVendor] !== undefined);

  it('creates one secret, retained, holding a placeholder the operator replaces, and outputs it and the notice URL', () => {
    const secrets = resourcesOf(template, 'AWS::SecretsManager::Secret');
    expect(Object.keys(secrets)).toEqual([secretId]);
    const secret = secrets[secretId!]!;
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(JSON.parse(secret.Properties?.GenerateSecretString.SecretStringTemplate)).toHaveProperty('unset');
    expect(secret.Properties?.Description).toMatch(/plaid[\s\S]*put-secret-value[\s\S]*identity-vendor-plaid/i);
    expect(JSON.stringify(outputs.IdentityNoticeUrl?.Value)).toContain('identity/notices');
  });

  it('alarms on a check still pending after the last look (IdentityCheckStalled), naming its runbook section', () => {
    const alarms = Object.values(resourcesOf(monitoring, 'AWS::CloudWatch::Alarm')).map((a) => propsOf(a));
    const stalled = alarms.filter((a) => a.MetricName === 'IdentityCheckStalled');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]).toMatchObject({ Statistic: 'Sum', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(stalled[0]?.AlarmDescription).toContain('docs/operations.md#identity-checks-stalled');
  });

  it('gives the vendor, its settings and its secret’s ARN to exactly the identification worker and the notice route', () => {
    expect(vendorFunctions.map((f) => f.description).sort()).toEqual([WORKER, NOTICE].sort());
    for (const f of vendorFunctions) {
      expect(f.variables).toMatchObject({
        [CONFIG_ENV.identityVendor]: 'plaid',
        [PLAID_ENV.clientId]: PLAID.plaidClientId,
        [PLAID_ENV.templateId]: PLAID.plaidTemplateId,
        [PLAID_ENV.environment]: 'sandbox',
      });
      expect(refId(f.variables[CONFIG_ENV.identityVendorSecretArn])).toBe(secretId);
      expect(f.variables[PLAID_ENV.secret]).toBeUndefined();
    }
  });

  it('lets exactly those two read the secret (GetSecretValue on it alone), and no other function any', () => {
    for (const f of vendorFunctions) {
      const reads = f.statements.filter((s) => secretActions([s]).length > 0);
      expect(
        reads.map((s) => [s.Action, refId(s.Resource)]),
        f.description,
      ).toEqual([['secretsmanager:GetSecretValue', secretId]]);
    }
    const others = functions.filter((f) => !vendorFunctions.includes(f));
    expect(others.flatMap((f) => secretActions(f.statements))).toEqual([]);
  });

  it('denies reading the secret to every principal but those two functions’ roles', () => {
    const policies = Object.values(resourcesOf(template, 'AWS::SecretsManager::ResourcePolicy')).map((p) =>
      propsOf(p, 'secret resource policy'),
    );
    expect(policies.map((p) => refId(p.SecretId))).toEqual([secretId]);
    const [deny] = policies[0]!.ResourcePolicy.Statement as Record<string, any>[];
    expect(deny).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'secretsmanager:GetSecretValue' });
    const spared = [deny!.Condition.ArnNotEquals['aws:PrincipalArn']]
      .flat()
      .map((arn: unknown) => refId(arn))
      .sort();
    expect(spared).toEqual(vendorFunctions.map((f) => f.role).sort());
  });

  it('serves the notice route without an authorizer; its function reads no table, opens no SSN, and only queues identifications', () => {
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties ?? {});
    const unauthorized = routes.filter((r) => r.AuthorizationType !== 'JWT');
    expect(unauthorized.map((r) => [r.RouteKey, r.AuthorizationType])).toEqual([[NOTICE, 'NONE']]);
    const notice = functions.find((f) => f.description === NOTICE)!;
    const actions = actionsOf(notice.statements.filter((s) => s.Effect === 'Allow'));
    expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    expect(actions.filter((a) => a.startsWith('sqs:')).sort()).toEqual(
      ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].sort(),
    );
    const cipher = kmsKeyIds(template).cipher;
    expect(
      notice.statements.filter((s) => refId(s.Resource) === cipher && actionsOf([s]).includes('kms:Decrypt')),
    ).toEqual([]);
  });

  it('adds the break-glass role to the secret’s policy when context names one, and passes cdk-nag', () => {
    const role = 'arn:aws:iam::123456789012:role/ops/IdentityVendorBreakGlass';
    const withRole = functionsOf({ context: { ...PLAID, identityVendorSecretsBreakGlassRoleArn: role } }).template;
    const [policy] = Object.values(resourcesOf(withRole, 'AWS::SecretsManager::ResourcePolicy'));
    expect(JSON.stringify(propsOf(policy, 'policy'))).toContain(role);
    const { app } = buildApp({ nag: true, context: PLAID });
    expect(() => app.synth()).not.toThrow();
  });
});

describe('the identity vendor’s context', () => {
  const settings = (context: Record<string, unknown>) => identityVendorSettingsFromContext(buildApp({ context }).stack);

  it('is the sandbox by default and Plaid with its settings, on Plaid’s sandbox unless told', () => {
    expect(settings({})).toEqual({ vendor: 'sandbox' });
    expect(settings(PLAID)).toEqual({
      vendor: 'plaid',
      plaid: { clientId: PLAID.plaidClientId, templateId: PLAID.plaidTemplateId, environment: 'sandbox' },
    });
  });

  it.each([
    [{ identityVendor: 'onfido' }, /"identityVendor" must be one of sandbox, plaid/],
    [{ identityVendor: 'plaid', plaidTemplateId: PLAID.plaidTemplateId }, /"plaidClientId" is required/],
    [{ ...PLAID, plaidClientId: 'client-1' }, /"plaidClientId" must be/],
    [{ ...PLAID, plaidTemplateId: 'template' }, /"plaidTemplateId" must be/],
    [{ ...PLAID, plaidEnvironment: 'development' }, /"plaidEnvironment" must be one of sandbox, production/],
    [{ plaidClientId: PLAID.plaidClientId }, /Plaid setting, but context "identityVendor" is sandbox/],
    [{ ...PLAID, identityVendorSecretsBreakGlassRoleArn: 'arn:aws:iam::*:role/x' }, /IAM role's ARN/],
  ])('refuses %j, naming the key and the way out', (context, message) => {
    expect(() => buildApp({ context })).toThrow(message);
  });
});
