import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '#lib/constructs/service-function';
import {
  CONSUMERS,
  type ConsumerDefinition,
  deployedRoutes,
  isProviderSigned,
  ROUTES,
  type RouteDefinition,
  type TableAccess,
  tableAccessOf,
  takesIdempotencyKey,
} from '#lib/service/index';
import { KEY_OWNER, KEY_PREFIX, type KeyKind, keyPattern } from '#shared/db/key-kinds';
import { TABLE_SCHEMA } from '#shared/db/schema';
import { actionsOf, buildApp, propsOf, resourcesOf, type Statement, statementsOfRole } from './harness';

const { stack } = buildApp();
const template = Template.fromStack(stack);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));

/**
 * Every function of the stack and exactly what it may do with DynamoDB: each action with
 * the resources it is allowed on, derived here from the function's row and the shares the
 * HTTP stack and the stream add. The rows themselves are held against what the code sends
 * by the drift test (test/support/table-access-recorder.ts), so a route's grant needs no
 * hand-written line here; what stays hand-written is each share below, so a changed share
 * fails here and is reviewed as a change of permissions. The derivation is this file's own
 * (it never calls the stack's grant helpers), so a bug in the stack's wiring still fails.
 * `table` is the table's ARN, `table/index/<name>` an index's, `stream` the table stream's;
 * `table (P …)` the table under a `dynamodb:LeadingKeys` condition: only items whose
 * partition key matches one of the patterns P.
 */

/**
 * How the expectations name the grants of a function that acts for one tenant at a time:
 * `tenant table (P …)` is the table under its tenant role (lib/constructs/tenant-role.ts),
 * confined to the session tenant's keys (`TAG` is the policy variable of its session tag),
 * `tenant table/index/<name> (P …)` an index under it. What is not a tenant's stays on
 * the function's own role (`table (P …)`).
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: IAM's policy variable, as the template has it
const TAG = '${aws:PrincipalTag/tenant}';

/**
 * What the HTTP middleware stack asks on every route, confined to its own records
 * (functions/shared/http/table-access.ts): the tenant alias, the tenant's settings and its
 * token bucket read (GetItem); the bucket's atomic take (UpdateItem) and, when empty, its
 * conditional refill (PutItem). The alias is read before the tenant is known, under the
 * function's own role; the tenant's settings and bucket under its tenant role.
 */
const EVERY_ROUTE = {
  'dynamodb:GetItem': ['table (CLIENT#*)', `tenant table (RATE#${TAG} TENANT#${TAG})`],
  'dynamodb:PutItem': [`tenant table (RATE#${TAG})`],
  'dynamodb:UpdateItem': [`tenant table (RATE#${TAG})`],
};
/** The same on a route that crosses tenants (`crossTenant`): all on its own role, by kind. */
const EVERY_ROUTE_ACROSS_TENANTS = {
  'dynamodb:GetItem': ['table (CLIENT#* TENANT#* RATE#*)'],
  'dynamodb:PutItem': ['table (RATE#*)'],
  'dynamodb:UpdateItem': ['table (RATE#*)'],
};
/** And where the method takes an `Idempotency-Key` (`takesIdempotencyKey`): the idempotency record claimed, completed or released. */
const IDEMPOTENT_ROUTE = {
  'dynamodb:DeleteItem': [`tenant table (IDEM#${TAG}#*)`],
  'dynamodb:PutItem': [`tenant table (IDEM#${TAG}#*)`],
  'dynamodb:UpdateItem': [`tenant table (IDEM#${TAG}#*)`],
};

/** And on a list (`listPositions`): its positions (cursors and bookmarks) read and written, functions/shared/db/list-positions/. */
const LIST_ROUTE = {
  'dynamodb:GetItem': [`tenant table (PAGE#${TAG}#*)`],
  'dynamodb:PutItem': [`tenant table (PAGE#${TAG}#*)`],
};
/** The same on a list that crosses tenants: on its own role, by kind. */
const LIST_ROUTE_ACROSS_TENANTS = {
  'dynamodb:GetItem': ['table (PAGE#*)'],
  'dynamodb:PutItem': ['table (PAGE#*)'],
};

/** What a table-stream consumer's event source mapping reads with the function's role (ListStreams has no resource-level permissions). */
const STREAM_CONSUMER = {
  'dynamodb:DescribeStream': ['stream'],
  'dynamodb:GetRecords': ['stream'],
  'dynamodb:GetShardIterator': ['stream'],
  'dynamodb:ListStreams': ['*'],
};

/** One tenant's keys of a kind as its tenant role names them: `T#<tenant>#*`, exactly `RATE#<tenant>`. */
function tenantPattern(kind: KeyKind): string {
  const owner = KEY_OWNER[kind];
  if (owner === 'none') throw new Error(`${kind} is no tenant's`);
  return `${KEY_PREFIX[kind]}${TAG}${owner.tenant === 'prefix' ? '#*' : ''}`;
}

/**
 * A row's own table accesses as grants: each one's actions on the table under its key
 * confinement (the patterns of its key kinds), `Query` on each index by physical name. A
 * function that acts for one tenant at a time (`acrossTenants` false) has the kinds each
 * tenant owns (KEY_OWNER) and every index under its tenant role, confined to the session
 * tenant's keys and index partitions, and only the rest on its own role; one that crosses
 * tenants has it all on its own role, by kind, its indexes never confined.
 */
function grantsOfAccess(accesses: readonly TableAccess[], acrossTenants: boolean): Record<string, string[]> {
  return together(
    ...accesses.map(({ actions, indexes = [], leadingKeys = [] }) => {
      const indexNames = indexes.map((index) => `table/index/${TABLE_SCHEMA.indexes[index].name}`);
      if (acrossTenants) {
        const confined = leadingKeys.length > 0 ? ` (${leadingKeys.map(keyPattern).join(' ')})` : '';
        return together(
          Object.fromEntries(actions.map((action) => [`dynamodb:${action}`, [`table${confined}`]])),
          indexNames.length > 0 ? { 'dynamodb:Query': indexNames } : {},
        );
      }
      // Each kind's indexes are walked under the role of its records, confined to their partitions.
      const tenants = leadingKeys.filter((kind) => KEY_OWNER[kind] !== 'none');
      const others = leadingKeys.filter((kind) => KEY_OWNER[kind] === 'none');
      const on = (name: string, patterns: string) => ({
        ...Object.fromEntries(actions.map((action) => [`dynamodb:${action}`, [`${name} (${patterns})`]])),
        ...(indexNames.length > 0 && {
          'dynamodb:Query': indexNames.map((index) => `${name.replace('table', index)} (${patterns})`),
        }),
      });
      return together(
        tenants.length > 0 || others.length === 0
          ? on(
              'tenant table',
              (tenants.length > 0 ? tenants : (['tenantData'] as KeyKind[])).map(tenantPattern).sort().join(' '),
            )
          : {},
        others.length > 0 ? on('table', others.map(keyPattern).join(' ')) : {},
      );
    }),
  );
}

/** What a function's roles must allow: its row's access, and the shares its kind of function adds. */
function expectedGrantsOf(row: RouteDefinition | ConsumerDefinition): Record<string, string[]> {
  const acrossTenants = row.crossTenant !== undefined;
  if ('method' in row) {
    return together(
      grantsOfAccess(tableAccessOf(row), acrossTenants),
      isProviderSigned(row) ? {} : acrossTenants ? EVERY_ROUTE_ACROSS_TENANTS : EVERY_ROUTE,
      takesIdempotencyKey(row) ? IDEMPOTENT_ROUTE : {},
      row.listPositions ? (acrossTenants ? LIST_ROUTE_ACROSS_TENANTS : LIST_ROUTE) : {},
    );
  }
  return together(
    grantsOfAccess(tableAccessOf(row), acrossTenants),
    row.source.kind === 'table-stream' ? STREAM_CONSUMER : {},
  );
}

/** Every deployed function's row by id: the deployed routes' and the consumers'. */
const rowsById = new Map<string, RouteDefinition | ConsumerDefinition>(
  [...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => [row.id, row]),
);

/**
 * Worked examples of the derivation, written out in full: if the derivation above and the
 * stack ever agree on something wrong, these still tell. Not one per route: adding a route
 * needs no line here.
 */
const WORKED_EXAMPLES: Record<string, Record<string, string[]>> = {
  // A list: the slim list indexes only (never the table's own keys), then the page's items by key.
  ListVerifyAccounts: together(
    onTenantData('BatchGetItem', 'GetItem'),
    { 'dynamodb:Query': [`tenant table/index/gsi1 (T#${TAG}#*)`, `tenant table/index/gsi2 (T#${TAG}#*)`] },
    EVERY_ROUTE,
    LIST_ROUTE,
  ),
  // A POST: a Query of the verification slots, a put claiming one (deleted again if the
  // account's put fails) and the account's put, read back when a retry finds its id taken
  // (#shared/created-id); the idempotency record besides.
  CreateVerifyAccount: together(
    onTenantData('DeleteItem', 'GetItem', 'PutItem', 'Query'),
    EVERY_ROUTE,
    IDEMPOTENT_ROUTE,
  ),
  // A PUT takes no Idempotency-Key: it is idempotent by itself.
  ReplaceWebhookConfiguration: together(onTenantData('UpdateItem'), EVERY_ROUTE),
  // The stream consumer: events stored from status changes, a stored event fanned out with
  // a Query of the tenant's configurations, and the stream itself read.
  StreamRouter: { ...onTenantData('PutItem', 'Query'), ...STREAM_CONSUMER },
  // Reads tenant data and the tenant's settings, reads the screening lists' version and
  // listings (walking their byTenant partitions, `SCREEN#<list>#LISTINGS`, under its own
  // role), queries a person's hits, writes only tenant data.
  IdentificationWorker: {
    'dynamodb:GetItem': ['table (SCREEN#*)', `tenant table (T#${TAG}#* TENANT#${TAG})`],
    'dynamodb:BatchGetItem': ['table (SCREEN#*)'],
    'dynamodb:Query': ['table/index/gsi1 (SCREEN#*)', `tenant table (T#${TAG}#*)`],
    'dynamodb:PutItem': [`tenant table (T#${TAG}#*)`],
    'dynamodb:UpdateItem': [`tenant table (T#${TAG}#*)`],
  },
  // The event and the tenant's redelivery pace, read and paced; the configurations queried.
  RedeliverEvent: together(
    {
      'dynamodb:GetItem': [`tenant table (REDELIVER#${TAG} T#${TAG}#*)`],
      'dynamodb:UpdateItem': [`tenant table (REDELIVER#${TAG} T#${TAG}#*)`],
      'dynamodb:Query': [`tenant table (T#${TAG}#*)`],
    },
    EVERY_ROUTE,
    IDEMPOTENT_ROUTE,
  ),
  // A schedule that only sends messages (one per screening shard): nothing on the table at all.
  DailyRescreen: {},
  // A change's listings or the whole lists read; the persons' screening walk (an index) and
  // the persons read; a match's hits recorded (the person's partition queried, a hit put)
  // and the person restricted; the run's record. Writes tenant data and run records only.
  ScreeningWorker: {
    'dynamodb:GetItem': ['table (SCREEN#*)', 'table (T#*)'],
    'dynamodb:BatchGetItem': ['table (SCREEN#*)', 'table (T#*)'],
    'dynamodb:Query': ['table (T#*)', 'table/index/gsi1', 'table/index/gsi2'],
    'dynamodb:PutItem': ['table (T#*)'],
    'dynamodb:UpdateItem': ['table (SCREENRUN#*)', 'table (T#*)'],
  },
};

/** Actions on the session tenant's records only (`T#<tenant>#…`, the kind `tenantData`), under the tenant role. */
function onTenantData(...actions: string[]): Record<string, string[]> {
  return Object.fromEntries(actions.map((action) => [`dynamodb:${action}`, [`tenant table (T#${TAG}#*)`]]));
}

/** Several grants as one role's: each action with every resource any of them names, sorted. */
function together(...parts: Record<string, string[]>[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const part of parts) {
    for (const [action, resources] of Object.entries(part)) merged[action] = [...(merged[action] ?? []), ...resources];
  }
  return Object.fromEntries(Object.entries(merged).map(([action, resources]) => [action, resources.sort()]));
}

/** Every function of the stack by id: the deployed routes' and the consumers'. */
const functionsById = new Map<string, ServiceFunction>([...stack.functions, ...stack.pipeline.consumers]);

/** A resource as the expectations name it, with the statement's key confinement; anything unforeseen stays visible as JSON. */
function grantName(resource: unknown, condition: Record<string, Record<string, unknown>> | undefined): string {
  if (condition === undefined) return resourceName(resource);
  const { 'ForAllValues:StringLike': like, Null: present, ...other } = condition;
  const patterns = like?.['dynamodb:LeadingKeys'] as string[] | undefined;
  const confined =
    patterns !== undefined &&
    Object.keys(like ?? {}).length === 1 &&
    JSON.stringify(present) === JSON.stringify({ 'dynamodb:LeadingKeys': 'false' }) &&
    Object.keys(other).length === 0;
  return confined
    ? `${resourceName(resource)} (${patterns.join(' ')})`
    : `${resourceName(resource)} ${JSON.stringify(condition)}`;
}

/** A resource as the expectations name it; anything unforeseen stays visible as JSON. */
function resourceName(resource: unknown): string {
  const text = JSON.stringify(resource);
  const tableArn = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });
  if (text === tableArn) return 'table';
  if (text === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] })) return 'stream';
  const index = /^\{"Fn::Join":\["",\[(.*),"\/index\/([^"]+)"\]\]\}$/.exec(text);
  if (index?.[1] === tableArn) return `table/index/${index[2]}`;
  return resource === '*' ? '*' : text;
}

/**
 * The DynamoDB actions a function's roles allow, each with its resources (named, sorted):
 * its own role's, and its tenant role's (`tenant …`) where it has one.
 */
function dynamodbGrantsOf(fn: ServiceFunction): Record<string, string[]> {
  const grants: Record<string, string[]> = {};
  const roles: [ServiceFunction['role'] | undefined, string][] = [
    [fn.role, ''],
    [fn.tenantRole, 'tenant '],
  ];
  for (const [role, prefix] of roles) {
    if (!role) continue;
    const roleId = stack.getLogicalId(role.node.defaultChild as CfnElement);
    // The write guard's Deny (aliases, settings, screening entries) is test/infra/key-confinement.test.ts's.
    for (const statement of statementsOfRole(template, roleId).filter((s) => s.Effect === 'Allow')) {
      const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
      for (const action of actionsOf([statement]).filter((a) => a.toLowerCase().startsWith('dynamodb:'))) {
        const { Condition } = statement as { Condition?: Record<string, Record<string, unknown>> };
        grants[action] = [...(grants[action] ?? []), ...resources.map((r) => prefix + grantName(r, Condition))].sort();
      }
    }
  }
  return grants;
}

/** Every statement of every IAM policy in the template: policies, roles' inline policies, managed policies. */
function everyIamStatement(t: Template): Statement[] {
  return [
    ...Object.entries(resourcesOf(t, 'AWS::IAM::Policy')).flatMap(
      ([id, p]) => propsOf(p, id).PolicyDocument.Statement as Statement[],
    ),
    ...Object.entries(resourcesOf(t, 'AWS::IAM::ManagedPolicy')).flatMap(
      ([id, p]) => propsOf(p, id).PolicyDocument.Statement as Statement[],
    ),
    ...Object.entries(resourcesOf(t, 'AWS::IAM::Role')).flatMap(([id, r]) =>
      ((propsOf(r, id).Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
        (p) => p.PolicyDocument.Statement,
      ),
    ),
  ];
}

describe('DynamoDB grants, function by function', () => {
  it('every function of the stack has a row: each deployed route and each consumer, and no other', () => {
    expect([...functionsById.keys()].sort()).toEqual([...rowsById.keys()].sort());
  });

  it.each([...rowsById.keys()])(
    '%s may use exactly the DynamoDB actions its row and its shares declare, on exactly those resources',
    (id) => {
      const fn = functionsById.get(id);
      if (!fn) throw new Error(`the stack has no function ${id}`);
      expect(dynamodbGrantsOf(fn)).toEqual(expectedGrantsOf(rowsById.get(id) as RouteDefinition | ConsumerDefinition));
    },
  );

  it.each(Object.entries(WORKED_EXAMPLES))(
    '%s, written out: the derivation and the stack both give it',
    (id, grants) => {
      const fn = functionsById.get(id);
      if (!fn) throw new Error(`the stack has no function ${id}`);
      expect(expectedGrantsOf(rowsById.get(id) as RouteDefinition | ConsumerDefinition)).toEqual(grants);
      expect(dynamodbGrantsOf(fn)).toEqual(grants);
    },
  );
});

describe('DynamoDB grants the verification slots need, on the rows themselves', () => {
  // The idempotency middleware's grant holds DeleteItem too; the rows must not lean on it.
  it.each([
    ['CreateVerifyAccount', ['DeleteItem', 'GetItem', 'PutItem', 'Query']],
    ['VerifyAccountDebits', ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem']],
  ])('%s declares the slot Query, the claim (PutItem), its release (DeleteItem) and its own write', (id, actions) => {
    const row = ROUTES.find((route) => route.id === id);
    expect(
      row &&
        tableAccessOf(row)
          .flatMap((access) => access.actions)
          .sort(),
    ).toEqual(actions);
  });
});

describe('DynamoDB grants, stack-wide', () => {
  const checkedStacks = [
    ['the stack as bin/app.ts builds it', template],
    [
      'the stack with an email sender and an external issuer with client ids',
      Template.fromStack(
        buildApp({
          context: {
            emailSender: 'no-reply@example.com',
            jwtIssuer: 'https://login.example.com/oauth2/default',
            jwtAudience: 'api://verify',
            partners: [{ name: 'acme', clientIds: ['0oa1acme'] }],
          },
        }).stack,
      ),
    ],
  ] as const;

  it.each(checkedStacks)('%s: no statement allows dynamodb:Scan or any DynamoDB wildcard action', (_, t) => {
    const actions = actionsOf(everyIamStatement(t)).filter((a) => a.toLowerCase().startsWith('dynamodb:'));
    // Not vacuous: the functions' grants are among them.
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem']));
    for (const action of actions) {
      expect(action.toLowerCase()).not.toBe('dynamodb:scan');
      expect(action).not.toContain('*');
    }
  });

  it.each(checkedStacks)('%s: no statement names an index wildcard (`<table>/index/*`)', (_, t) => {
    const statements = everyIamStatement(t);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(JSON.stringify(statement.Resource)).not.toContain('/index/*');
  });
});

describe('a row whose item actions name no key kinds', () => {
  it('fails at synth, naming the function and the fix: every item action is confined to the key kinds its row names', () => {
    const getPerson = ROUTES.find((route) => route.id === 'GetPerson');
    if (!getPerson) throw new Error('no GetPerson row');
    const unconfined: RouteDefinition = { ...getPerson, table: { actions: ['GetItem'] } };
    expect(() => buildApp({ stackProps: { routes: [unconfined] } })).toThrow(
      /GetPerson: table actions GetItem name no key kinds: add leadingKeys/,
    );
  });
});
