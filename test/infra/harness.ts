import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { REPO_ROOT } from '#lib/repo-root';
import { VerifyServiceStack, type VerifyServiceStackProps } from '#lib/stack';

/**
 * Builds the app the way `cdk synth` does (cdk.json's context, feature flags included),
 * with asset bundling skipped unless asked for: a template test then takes well under a
 * second. The infra project sets CDK_VALIDATION=false for the same reason.
 */

export const ENV = { account: '123456789012', region: 'eu-west-1' } as const;

/** `cdk synth -c bankProvider=increase -c increaseAccountId=…`: the stack on real rails (docs/deploy.md). */
export const RAILS_CONTEXT = { bankProvider: 'increase', increaseAccountId: 'account_in71c4amph0vgo2qllky' };
/** `cdk synth -c identityVendor=plaid …`: the stack with a real identity vendor (docs/deploy.md#identity-vendor-plaid). */
export const PLAID_CONTEXT = {
  identityVendor: 'plaid',
  plaidClientId: '5d8b2f1e9c0a4b3d2e1f0a9b',
  plaidTemplateId: 'idvtmp_52xR9LKo77r1Np',
};

const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

export interface BuildOptions {
  /** Context entries layered over cdk.json's (`undefined` removes a key). */
  readonly context?: Record<string, unknown>;
  /** Bundle the handlers with esbuild, as a real synth does. */
  readonly bundle?: boolean;
  /** Register cdk-nag's AwsSolutions checks, as bin/app.ts does. */
  readonly nag?: boolean;
  readonly stackProps?: VerifyServiceStackProps;
}

export function buildApp(options: BuildOptions = {}): { app: App; stack: VerifyServiceStack } {
  const context: Record<string, unknown> = { ...cdkJson.context, ...options.context };
  for (const [key, value] of Object.entries(context)) if (value === undefined) delete context[key];
  if (!options.bundle) context['aws:cdk:bundling-stacks'] = [];
  const app = new App({ context });
  if (options.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const stack = new VerifyServiceStack(app, 'VerifyService', { env: ENV, ...options.stackProps });
  return { app, stack };
}

export function synthTemplate(options: BuildOptions = {}): Template {
  return Template.fromStack(buildApp(options).stack);
}

/**
 * The monitoring nested stack's template (every alarm and the dashboard,
 * lib/stack/monitoring.ts) as the parent fills in its parameters: each `{ Ref: <parameter> }`
 * becomes what the parent passes for it (`{ Ref: <logical id> }`,
 * `{ "Fn::GetAtt": [<logical id>, "QueueName"] }`), so an alarm names the function, queue,
 * API and topic it watches by their logical ids in the parent's template. Throws when the
 * parent leaves a parameter unset. `Template.fromStack(stack.monitoring)` is the template as
 * CloudFormation receives it.
 */
export function monitoringTemplate(stack: VerifyServiceStack): Template {
  const parent = Template.fromStack(stack).toJSON() as { Resources: Resources };
  const nested = Template.fromStack(stack.monitoring).toJSON() as { Parameters?: Record<string, unknown> };
  const resourceId = stack.getLogicalId(stack.monitoring.nestedStackResource as CfnElement);
  const passed = (parent.Resources[resourceId]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
  const unset = Object.keys(nested.Parameters ?? {}).filter((name) => !(name in passed));
  if (unset.length > 0) throw new Error(`the parent passes no value for ${unset.join(', ')}`);
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const { Ref: ref } = value as { Ref?: unknown };
    if (typeof ref === 'string' && Object.keys(value).length === 1 && ref in passed) return passed[ref];
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, resolve(v)]));
  };
  return Template.fromJSON(resolve(nested) as Record<string, unknown>);
}

/** The stack's template and its monitoring nested stack's (`monitoringTemplate`), from one synthesis. */
export function synthTemplates(options: BuildOptions = {}): { template: Template; monitoring: Template } {
  const { stack } = buildApp(options);
  return { template: Template.fromStack(stack), monitoring: monitoringTemplate(stack) };
}

export type Resources = Record<string, { Type: string; Properties?: Record<string, any>; [k: string]: any }>;

/** The template's resources of one type, by logical id. */
export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/**
 * A resource's Properties, for reading a property the resource type requires: throws when
 * the resource or its Properties are missing, so an assertion never runs on `undefined`.
 */
export function propsOf(resource: Resources[string] | undefined, what = 'resource'): Record<string, any> {
  if (resource?.Properties === undefined) throw new Error(`${what} has no Properties`);
  return resource.Properties;
}

/** `{ "Fn::GetAtt": [id, "Arn"] }` / `{ Ref: id }` → id. */
export function refId(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
    return v.Ref ?? v['Fn::GetAtt']?.[0];
  }
  return undefined;
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/**
 * Every statement of every policy of a role (by its logical id): the `AWS::IAM::Policy`
 * resources attached to it and its own inline policies (a tenant role's,
 * lib/constructs/tenant-role.ts). Throws when it has none: every role of the stack has one
 * (at least its log writes).
 */
export function statementsOfRole(template: Template, roleId: string): Statement[] {
  const policies = Object.entries(resourcesOf(template, 'AWS::IAM::Policy'))
    .map(([id, p]) => propsOf(p, id))
    .filter((p) => ((p.Roles ?? []) as unknown[]).some((r) => refId(r) === roleId));
  const inline = (propsOf(resourcesOf(template, 'AWS::IAM::Role')[roleId], roleId).Policies ?? []) as {
    PolicyDocument: { Statement: Statement[] };
  }[];
  if (policies.length === 0 && inline.length === 0) throw new Error(`no policy is attached to role ${roleId}`);
  return [...policies, ...inline].flatMap((p) => p.PolicyDocument.Statement as Statement[]);
}

/**
 * Every statement a function may act under: its execution role's, and its tenant role's
 * (the role `TENANT_ROLE_ARN` names, lib/constructs/tenant-role.ts) where it has one.
 */
export function statementsOfFunction(template: Template, fn: Record<string, any>): Statement[] {
  const tenantRole = refId(fn.Environment?.Variables?.TENANT_ROLE_ARN);
  return [
    ...statementsOfRole(template, refId(fn.Role)!),
    ...(tenantRole === undefined ? [] : statementsOfRole(template, tenantRole)),
  ];
}

export const actionsOf = (statements: Statement[]): string[] =>
  statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

/**
 * The stack's three KMS keys by role: the storage key (the one the table's encryption
 * names), the key of the alarm topic (the one an SNS topic names as its master key), and
 * the cipher key (SSNs, tax ids and webhook secrets), the remaining one.
 */
export function kmsKeyIds(template: Template): { cipher: string; storage: string; alarms: string } {
  const topicKeys = Object.values(resourcesOf(template, 'AWS::SNS::Topic')).map((t) =>
    refId(t.Properties?.KmsMasterKeyId),
  );
  const tableKeys = Object.values(resourcesOf(template, 'AWS::DynamoDB::Table')).map((t) =>
    refId(t.Properties?.SSESpecification?.KMSMasterKeyId),
  );
  const keys = Object.keys(resourcesOf(template, 'AWS::KMS::Key'));
  const alarms = keys.filter((id) => topicKeys.includes(id));
  const storage = keys.filter((id) => tableKeys.includes(id));
  const cipher = keys.filter((id) => !topicKeys.includes(id) && !tableKeys.includes(id));
  if (cipher.length !== 1 || storage.length !== 1 || alarms.length !== 1)
    throw new Error(`expected one cipher key, one table (storage) key and one alarm-topic key, got ${keys.join(', ')}`);
  return { cipher: cipher[0]!, storage: storage[0]!, alarms: alarms[0]! };
}

/**
 * The `kms:ViaService` condition value the stack writes for a service (`dynamodb`, `sqs`)
 * in the harness's region.
 */
export const viaService = (service: string) => ({
  'Fn::Join': ['', [`${service}.${ENV.region}.`, { Ref: 'AWS::URLSuffix' }]],
});

/** The one function with this description (routes: the route key; consumers: `consumerDescription`). */
export function functionByDescription(
  template: Template,
  description: string,
): { id: string; props: Record<string, any> } {
  const found = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(
    ([, f]) => f.Properties?.Description === description,
  );
  if (found.length !== 1) throw new Error(`expected one function described "${description}", found ${found.length}`);
  return { id: found[0]![0], props: found[0]![1].Properties! };
}

/**
 * An AwsCustomResource renders each SDK call as a JSON string, joined around the tokens it
 * contains. Rebuild the JSON with `{{Ref:<logical id>}}` in place of each `Ref`.
 */
export function sdkCall(value: unknown): {
  service: string;
  action: string;
  parameters: any;
  physicalResourceId?: { id: string };
} {
  if (typeof value === 'string') return JSON.parse(value);
  const [separator, parts] = (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const id = (part as { Ref?: string }).Ref;
      if (id === undefined) throw new Error(`unexpected token in SDK call: ${JSON.stringify(part)}`);
      return `{{Ref:${id}}}`;
    })
    .join(separator);
  return JSON.parse(text);
}

/** A `Ref` to a logical id as `sdkCall` writes it. */
export const ref = (logicalId: string) => `{{Ref:${logicalId}}}`;

/**
 * Every function of the stack, by description, with its variables, its execution role and its
 * role's statements; the stack's template and its monitoring nested stack's (`monitoringTemplate`).
 */
export function functionsOf(options: BuildOptions) {
  const { template, monitoring } = synthTemplates(options);
  const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map((f) => ({
    description: f.Properties?.Description as string,
    /** Its execution role's logical id (the role its own code, the Secrets Manager client included, runs under). */
    role: refId(f.Properties?.Role),
    variables: (f.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>,
    statements: statementsOfFunction(template, f.Properties ?? {}),
  }));
  return { template, monitoring, functions };
}
