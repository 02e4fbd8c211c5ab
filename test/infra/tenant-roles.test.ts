import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '#lib/constructs/service-function';
import { evaluatePolicy, type PolicyStatementInput } from '#lib/local/iam/policy-evaluator';
import { CONSUMERS, deployedRoutes, ROUTES, tableAccessOf, tableAccessOfRoute } from '#lib/service/index';
import { splitTenantAccess } from '#lib/service/tenant-access';
import { KEY_PREFIX, kindOfKey } from '#shared/db/key-kinds';
import { TABLE_ACTIONS, TABLE_SCHEMA } from '#shared/db/schema';
import { TENANT_SESSION_TAG } from '#shared/db/tenant-access/session-tag';
import {
  buildApp,
  PLAID_CONTEXT,
  propsOf,
  RAILS_CONTEXT,
  refId,
  resourcesOf,
  statementsOfRole,
  synthTemplates,
} from './harness';
import { sampleKeys } from './sample-keys';

// Issue 30: every tenant role of the synthesized template, read from the template alone
// and evaluated as IAM would (lib/local/iam/policy-evaluator.ts) for a session tagged with
// one tenant, reaches no item and no index partition of another tenant, by any action; and
// does reach its own tenant's, with exactly its row's actions (so the first is not vacuous).

const { stack } = buildApp();
const template = Template.fromStack(stack);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));
const TABLE = 'arn:aws:dynamodb:eu-west-1:123456789012:table/data';
const indexArn = (name: string) => `${TABLE}/index/${name}`;

/** A resource of the template as an ARN the evaluator can match: the table's, an index's; anything else stays visible. */
function arnOf(resource: unknown): string {
  const text = JSON.stringify(resource);
  const table = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });
  if (text === table) return TABLE;
  const index = /^\{"Fn::Join":\["",\[(.*),"\/index\/([^"]+)"\]\]\}$/.exec(text);
  if (index?.[1] === table) return indexArn(index[2] as string);
  return text;
}

/** A role's statements with their resources as ARNs (the evaluator's input). */
const statementsOf = (roleId: string): PolicyStatementInput[] =>
  statementsOfRole(template, roleId).map((statement) => {
    const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
    return { ...(statement as PolicyStatementInput), Resource: resources.map(arnOf) };
  });

const logicalId = (element: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(element.node.defaultChild as CfnElement);

const functions = new Map<string, ServiceFunction>([...stack.functions, ...stack.pipeline.consumers]);
const rows = new Map([...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => [row.id, row]));
const tenantRoles = [...functions].flatMap(([id, fn]) => (fn.tenantRole ? [[id, fn] as const] : []));

/** Every action a DynamoDB item request can name: the rows' actions and every write (BatchWriteItem, PartiQL). */
const EVERY_ACTION = [
  ...new Set([
    ...TABLE_ACTIONS,
    'BatchWriteItem',
    'PartiQLSelect',
    'PartiQLInsert',
    'PartiQLUpdate',
    'PartiQLDelete',
    'TransactWriteItems',
    'Scan',
  ]),
].map((action) => `dynamodb:${action}`);
const INDEXES = Object.values(TABLE_SCHEMA.indexes).map((index) => index.name);

/** What a session may do: every request each of `pks` names, on the table and on every index. */
function reachable(statements: readonly PolicyStatementInput[], tenant: string | undefined, pks: readonly string[]) {
  const tags: Record<string, string> = tenant === undefined ? {} : { [TENANT_SESSION_TAG]: tenant };
  const allowed: string[] = [];
  for (const pk of pks) {
    for (const action of EVERY_ACTION) {
      if (evaluatePolicy(statements, { action, resource: TABLE, leadingKeys: [pk] }, tags) === 'allowed')
        allowed.push(`${action} ${pk}`);
    }
    for (const index of INDEXES) {
      const request = { action: 'dynamodb:Query', resource: indexArn(index), leadingKeys: [pk] };
      if (evaluatePolicy(statements, request, tags) === 'allowed') allowed.push(`Query ${index} ${pk}`);
    }
  }
  return allowed;
}

/** Another tenant's keys of every kind, and index partitions of theirs and of no tenant's. */
const GLOBEX = [
  ...Object.values(sampleKeys('globex')),
  'T#globex#VA#pending#0',
  'T#globex#EVT#0',
  // A tenant whose name starts like acme's, and keys that only look like acme's.
  ...Object.values(sampleKeys('acmex')),
  'T#acme',
  'RATE#acme#x',
  'PSCREEN#3',
  'STATEMENT_CODE_SENT#1',
];

describe("tenant roles, evaluated from the template for a session of tenant 'acme'", () => {
  it('exist for every function that acts for one tenant and reaches tenants’ records, and for no other', () => {
    const expected = [...rows.values()]
      .filter((row) => {
        const grant = 'method' in row ? tableAccessOfRoute(row) : tableAccessOf(row);
        return splitTenantAccess(grant, row.crossTenant === undefined).tenant.length > 0;
      })
      .map((row) => row.id)
      .sort();
    expect(tenantRoles.map(([id]) => id).sort()).toEqual(expected);
    // Not vacuous: most functions have one; the ones that cross tenants do not.
    expect(expected.length).toBeGreaterThan(20);
    expect(expected).not.toContain('ScreeningWorker');
  });

  it.each(tenantRoles)(
    '%s: reaches no key of another tenant, no index partition of another tenant or of none, by any action',
    (_, fn) => {
      const statements = statementsOf(logicalId(fn.tenantRole as never));
      expect(reachable(statements, 'acme', GLOBEX)).toEqual([]);
    },
  );

  it.each(tenantRoles)(
    "%s: reaches the session tenant's keys with exactly its row's actions on them, and nothing without the tag",
    (id, fn) => {
      const statements = statementsOf(logicalId(fn.tenantRole as never));
      const row = rows.get(id);
      if (!row) throw new Error(`no row ${id}`);
      const { tenant } = splitTenantAccess('method' in row ? tableAccessOfRoute(row) : tableAccessOf(row), true);
      const acme = Object.values(sampleKeys('acme'));
      const expected = new Set<string>();
      for (const access of tenant) {
        for (const pk of acme) {
          const kind = kindOfKey(pk);
          if (!kind || !(access.leadingKeys ?? []).includes(kind)) continue;
          for (const action of access.actions) expected.add(`dynamodb:${action} ${pk}`);
          for (const index of access.indexes ?? []) expected.add(`Query ${TABLE_SCHEMA.indexes[index].name} ${pk}`);
        }
      }
      expect(new Set(reachable(statements, 'acme', acme))).toEqual(expected);
      expect(expected.size).toBeGreaterThan(0);
      expect(reachable(statements, undefined, acme)).toEqual([]);
    },
  );

  it.each(tenantRoles)(
    '%s: may be assumed only by its function’s execution role, with exactly the session tag tenant',
    (_, fn) => {
      const role = propsOf(resourcesOf(template, 'AWS::IAM::Role')[logicalId(fn.tenantRole as never)]);
      expect(role.AssumeRolePolicyDocument.Statement).toEqual([
        {
          Effect: 'Allow',
          Action: ['sts:AssumeRole', 'sts:TagSession'],
          Principal: { AWS: { 'Fn::GetAtt': [logicalId(fn.role), 'Arn'] } },
          Condition: {
            StringLike: { 'aws:RequestTag/tenant': '?*' },
            'ForAllValues:StringEquals': { 'aws:TagKeys': ['tenant'] },
          },
        },
      ]);
      // The function's variable names it; no other function's does.
      const variables = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter(
        (f) => refId(f.Properties?.Environment?.Variables?.TENANT_ROLE_ARN) === logicalId(fn.tenantRole as never),
      );
      expect(variables).toHaveLength(1);
    },
  );

  it('keep the stack within CloudFormation’s 500 resources, with room to grow', () => {
    const count = Object.keys(template.toJSON().Resources).length;
    expect(count).toBeLessThanOrEqual(450);
  });

  // The monitoring nested stack (lib/stack/monitoring.ts) is one resource of the parent and
  // a stack of its own, with its own 500: both are counted.
  it('keep the fullest stack (real rails, Plaid) and its monitoring nested stack each within 470 of CloudFormation’s 500 resources', () => {
    const { template: parent, monitoring } = synthTemplates({ context: { ...RAILS_CONTEXT, ...PLAID_CONTEXT } });
    const count = Object.keys(parent.toJSON().Resources).length;
    const roles = Object.keys(resourcesOf(parent, 'AWS::IAM::Role')).length;
    expect(
      count,
      `${count} resources in the stack, ${roles} of them roles: before a deploy fails at 500, move another part that only refers to the rest (as the alarms did, lib/stack/monitoring.ts) into a nested stack of its own (docs/deploy.md#tenant-roles)`,
    ).toBeLessThanOrEqual(470);
    const nested = Object.keys(monitoring.toJSON().Resources).length;
    const alarms = Object.keys(resourcesOf(monitoring, 'AWS::CloudWatch::Alarm')).length;
    expect(
      nested,
      `${nested} resources in the monitoring nested stack, ${alarms} of them alarms: before a deploy fails at 500, split it in two nested stacks (say the functions' Errors and Throttles alarms in one, the rest and the dashboard in the other; docs/deploy.md#tenant-roles)`,
    ).toBeLessThanOrEqual(470);
  });

  it('name every kind of key a tenant owns in the samples (a new kind must be sampled)', () => {
    const kinds = new Set(Object.values(sampleKeys('acme')).map((pk) => kindOfKey(pk)));
    expect([...kinds].sort()).toEqual(Object.keys(KEY_PREFIX).sort());
  });
});
