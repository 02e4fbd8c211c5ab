import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { buildApp, propsOf, resourcesOf } from './harness';

/**
 * The only actions any identity policy of the stack may allow on `Resource: "*"`, each
 * with the reason AWS leaves no narrower resource. Written by hand: a new entry is a
 * reviewed decision, not something a test derives.
 */
const RESOURCE_STAR_EXCEPTIONS: Readonly<Record<string, string>> = {
  'xray:PutTraceSegments':
    'X-Ray defines no resource type for it (Service Authorization Reference): active tracing on every function can only be granted on "*".',
  'xray:PutTelemetryRecords': 'Likewise no resource type; sent with the trace segments by active tracing.',
  'dynamodb:ListStreams':
    "No resource-level permissions: the stream event source mapping lists the table's stream ARNs with the function's role; AWS's own AWSLambdaDynamoDBExecutionRole grants it on \"*\". Reading the records is limited to the table's stream.",
};

interface Statement {
  Effect: string;
  Action?: string | string[];
  NotAction?: unknown;
  Resource?: unknown;
  NotResource?: unknown;
}

/** Every statement of every identity policy: policies, managed policies and roles' inline policies, by where it is. */
function identityStatements(template: Template): [string, Statement][] {
  const documents = [
    ...Object.entries(resourcesOf(template, 'AWS::IAM::Policy')).map(([id, p]) => [id, propsOf(p, id)] as const),
    ...Object.entries(resourcesOf(template, 'AWS::IAM::ManagedPolicy')).map(([id, p]) => [id, propsOf(p, id)] as const),
  ].map(([id, props]) => [id, props.PolicyDocument.Statement as Statement[]] as const);
  const inline = Object.entries(resourcesOf(template, 'AWS::IAM::Role')).flatMap(([id, r]) =>
    ((propsOf(r, id).Policies ?? []) as { PolicyName: string; PolicyDocument: { Statement: Statement[] } }[]).map(
      (p) => [`${id}/${p.PolicyName}`, p.PolicyDocument.Statement] as const,
    ),
  );
  return [...documents, ...inline].flatMap(([where, statements]) => statements.map((s) => [where, s] as const));
}

/** Every literal string inside a value (the parts of an `Fn::Join`, say), not the logical ids of references. */
function literals(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(literals);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => (key === 'Ref' || key === 'Fn::GetAtt' ? [] : literals(v)));
  }
  return [];
}

/**
 * What breaks least privilege in the template's identity policies: an action with a
 * wildcard (`*`, `sqs:*`, `kms:GenerateDataKey*`, ...), `NotAction`/`NotResource`, a
 * resource `*` for an action not in RESOURCE_STAR_EXCEPTIONS, and a wildcard inside any
 * other resource (`arn:…:table/x/index/*`, `arn:…:queue:*`).
 */
function findings(template: Template): string[] {
  const found: string[] = [];
  for (const [where, statement] of identityStatements(template)) {
    if (statement.NotAction !== undefined) found.push(`${where}: NotAction`);
    if (statement.NotResource !== undefined) found.push(`${where}: NotResource`);
    const actions = statement.Action === undefined ? [] : [statement.Action].flat();
    for (const action of actions) if (action.includes('*')) found.push(`${where}: action ${action}`);
    const resources = statement.Resource === undefined ? [] : [statement.Resource].flat();
    for (const resource of resources) {
      if (resource === '*') {
        for (const action of actions) {
          if (!(action in RESOURCE_STAR_EXCEPTIONS)) found.push(`${where}: ${action} on "*"`);
        }
      } else if (literals(resource).some((text) => text.includes('*'))) {
        found.push(`${where}: resource ${JSON.stringify(resource)}`);
      }
    }
  }
  return found;
}

const STACKS = [
  ['the stack as bin/app.ts builds it (Cognito, sandbox partner)', {}],
  [
    'an external issuer with client ids, KYC settings and an email sender',
    {
      emailSender: 'no-reply@example.com',
      jwtIssuer: 'https://login.example.com/oauth2/default',
      jwtAudience: 'api://verify',
      partners: [{ name: 'acme', clientIds: ['0oa1acme'], kycMode: 'byo' }],
    },
  ],
  [
    'Cognito with two partners, one with a KYC mode',
    { partners: [{ name: 'acme', kycMode: 'byo' }, { name: 'globex' }] },
  ],
] as const;

describe('least privilege, every identity policy of the stack', () => {
  it.each(STACKS)(
    '%s: no wildcard action, no NotAction/NotResource, "*" only where AWS allows nothing else',
    (_, context) => {
      const template = Template.fromStack(buildApp({ context }).stack);
      // Not vacuous: every function role's policy is among them.
      expect(identityStatements(template).length).toBeGreaterThan(3 * 30);
      expect(findings(template)).toEqual([]);
    },
  );

  it('uses every exception it lists, so the table holds no stale permission', () => {
    const template = Template.fromStack(buildApp().stack);
    const onStar = identityStatements(template)
      .filter(([, s]) => s.Resource === '*' || (Array.isArray(s.Resource) && s.Resource.includes('*')))
      .flatMap(([, s]) => [s.Action ?? []].flat());
    expect([...new Set(onStar)].sort()).toEqual(Object.keys(RESOURCE_STAR_EXCEPTIONS).sort());
  });

  it('finds what it looks for: a service-wide action, a KMS action wildcard, "*" on a scoped action and a wildcard ARN', () => {
    const { stack } = buildApp();
    const role = new Role(Stack.of(stack), 'ProbeRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    new Policy(Stack.of(stack), 'ProbePolicy', {
      roles: [role],
      statements: [
        new PolicyStatement({
          actions: ['sqs:*'],
          resources: [stack.pipeline.queues.get('screening')!.queue.queueArn],
        }),
        new PolicyStatement({ actions: ['kms:GenerateDataKey*'], resources: [stack.storageKey.key.keyArn] }),
        new PolicyStatement({ actions: ['sqs:SendMessage'], resources: ['*'] }),
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${stack.dataTable.table.tableArn}/index/*`] }),
      ],
    });
    const found = findings(Template.fromStack(stack)).filter((f) => f.startsWith('ProbePolicy'));
    expect(found).toEqual([
      expect.stringContaining('action sqs:*'),
      expect.stringContaining('action kms:GenerateDataKey*'),
      expect.stringContaining('sqs:SendMessage on "*"'),
      expect.stringContaining('/index/*'),
    ]);
  });
});
