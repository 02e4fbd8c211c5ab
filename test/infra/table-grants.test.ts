import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '#lib/constructs/service-function';
import { CONSUMERS, deployedRoutes, ROUTES } from '#lib/service/index';
import { actionsOf, buildApp, propsOf, resourcesOf, type Statement, statementsOfRole } from './harness';

const { stack } = buildApp();
const template = Template.fromStack(stack);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));

/**
 * Every function of the stack and exactly what it may do with DynamoDB: each action with
 * the resources it is allowed on. Written out by hand, not derived from the rows, so that
 * a changed row (or a changed middleware need) fails here and is reviewed as a change of
 * permissions. `table` is the table's ARN, `table/index/<name>` an index's, `stream` the
 * table stream's; `table (P …)` the table under a `dynamodb:LeadingKeys` condition: only
 * items whose partition key matches one of the patterns P.
 */

/**
 * What the HTTP middleware stack asks on every route, confined to its own records
 * (functions/shared/http/table-access.ts): the tenant alias, the tenant's settings and its
 * token bucket read (GetItem); the bucket's atomic take (UpdateItem) and, when empty, its
 * conditional refill (PutItem).
 */
const EVERY_ROUTE = {
  'dynamodb:GetItem': ['table (CLIENT#* TENANT#* RATE#*)'],
  'dynamodb:PutItem': ['table (RATE#*)'],
  'dynamodb:UpdateItem': ['table (RATE#*)'],
};
/** And on POST, PATCH and DELETE: the idempotency record claimed, completed or released. */
const IDEMPOTENT_ROUTE = {
  'dynamodb:DeleteItem': ['table (IDEM#*)'],
  'dynamodb:PutItem': ['table (IDEM#*)'],
  'dynamodb:UpdateItem': ['table (IDEM#*)'],
};

/** And on a list: its positions (cursors and bookmarks) read and written, functions/shared/db/list-positions/. */
const LIST_ROUTE = {
  'dynamodb:GetItem': ['table (PAGE#*)'],
  'dynamodb:PutItem': ['table (PAGE#*)'],
};

const EXPECTED_GRANTS: Record<string, Record<string, string[]>> = {
  // A Query of the verification slots, a put claiming one (deleted again if the account's
  // put fails) and the account's put.
  CreateVerifyAccount: together(onTable('DeleteItem', 'PutItem', 'Query'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The slim list indexes only (never the table's own keys), then the page's items by key.
  ListVerifyAccounts: together(
    onTable('BatchGetItem', 'GetItem'),
    { 'dynamodb:Query': ['table/index/gsi1', 'table/index/gsi2'] },
    EVERY_ROUTE,
    LIST_ROUTE,
  ),
  GetVerifyAccount: together(onTable('GetItem'), EVERY_ROUTE),
  VerifyAccountControl: together(onTable('GetItem', 'UpdateItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The account, a Query of the verification slots, a put claiming one, the versioned
  // update (a conflict deletes the claim again).
  VerifyAccountDebits: together(
    onTable('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
    EVERY_ROUTE,
    IDEMPOTENT_ROUTE,
  ),
  // Events stored from status changes; a stored event fanned out with a Query of the
  // tenant's configurations (its type comes from the stream image: no read of the event).
  StreamRouter: {
    ...onTable('PutItem', 'Query'),
    // What its event source mapping reads with the function's role.
    'dynamodb:DescribeStream': ['stream'],
    'dynamodb:GetRecords': ['stream'],
    'dynamodb:GetShardIterator': ['stream'],
    'dynamodb:ListStreams': ['*'],
  },
  VerificationWorker: onTable('GetItem', 'UpdateItem'),
  // Reads the account, then records that its holder was emailed.
  StatementCodeEmailWorker: onTable('GetItem', 'UpdateItem'),
  // One transaction: the person and its reference uniqueness item.
  CreatePerson: together(onTable('PutItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  ListPersons: together(
    onTable('BatchGetItem', 'GetItem'),
    { 'dynamodb:Query': ['table/index/gsi1'] },
    EVERY_ROUTE,
    LIST_ROUTE,
  ),
  GetPerson: together(onTable('GetItem'), EVERY_ROUTE),
  // A versioned write; a new reference id puts its uniqueness item and deletes the old one.
  UpdatePerson: together(onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // PUT takes no Idempotency-Key: it is idempotent by itself.
  ReplacePerson: together(onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'), EVERY_ROUTE),
  UpsertPerson: together(onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'), EVERY_ROUTE),
  ClosePerson: together(onTable('GetItem', 'UpdateItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The person, the tenant's KYC setting, the screening entries of its name (table keys),
  // a review case, the outcome.
  IdentificationWorker: onTable('GetItem', 'PutItem', 'Query', 'UpdateItem'),
  ScreeningWorker: { ...onTable('GetItem', 'Query', 'UpdateItem'), 'dynamodb:Query': ['table', 'table/index/gsi2'] },
  DailyRescreen: { 'dynamodb:Query': ['table/index/gsi1'] },
  ListEvents: together(onTable('BatchGetItem'), { 'dynamodb:Query': ['table/index/gsi1'] }, EVERY_ROUTE, LIST_ROUTE),
  // The event and its delivery attempts (one Query of the event's own partition).
  GetEvent: together(onTable('Query'), EVERY_ROUTE),
  // The event and the tenant's redelivery pace (read, then each paced by a conditional
  // UpdateItem), then the tenant's configurations (one table partition) to fan it out.
  RedeliverEvent: together(onTable('GetItem', 'Query', 'UpdateItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The test event is stored; the stream publishes it.
  InvokeWebhook: together(onTable('PutItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The event and its attempts (one Query of the event's partition, to drop an attempt already
  // recorded), its configuration and secrets; each attempt recorded beside the event.
  WebhookDeliveryWorker: onTable('GetItem', 'PutItem', 'Query'),
  // One transaction: the configuration and the tenant's count.
  CreateWebhookConfiguration: together(onTable('PutItem', 'UpdateItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The configuration partition on the table's own keys; no index.
  ListWebhookConfigurations: together(onTable('Query'), EVERY_ROUTE),
  ReplaceWebhookConfiguration: together(onTable('UpdateItem'), EVERY_ROUTE),
  DeleteWebhookConfiguration: together(onTable('DeleteItem', 'UpdateItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  // The secret item read and put back.
  CreateWebhookSecret: together(onTable('GetItem', 'PutItem'), EVERY_ROUTE, IDEMPOTENT_ROUTE),
  GetWebhookSecret: together(onTable('GetItem'), EVERY_ROUTE),
  StatementCodeExpiry: {
    ...onTable('GetItem', 'UpdateItem'),
    'dynamodb:Query': ['table/index/gsi3'],
  },
};

function onTable(...actions: string[]): Record<string, string[]> {
  return Object.fromEntries(actions.map((action) => [`dynamodb:${action}`, ['table']]));
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

/** A resource as EXPECTED_GRANTS names it, with the statement's key confinement; anything unforeseen stays visible as JSON. */
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

/** A resource as EXPECTED_GRANTS names it; anything unforeseen stays visible as JSON. */
function resourceName(resource: unknown): string {
  const text = JSON.stringify(resource);
  const tableArn = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });
  if (text === tableArn) return 'table';
  if (text === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] })) return 'stream';
  const index = /^\{"Fn::Join":\["",\[(.*),"\/index\/([^"]+)"\]\]\}$/.exec(text);
  if (index?.[1] === tableArn) return `table/index/${index[2]}`;
  return resource === '*' ? '*' : text;
}

/** The DynamoDB actions a function's role allows, each with its resources (named, sorted). */
function dynamodbGrantsOf(fn: ServiceFunction): Record<string, string[]> {
  const roleId = stack.getLogicalId(fn.role.node.defaultChild as CfnElement);
  const grants: Record<string, string[]> = {};
  for (const statement of statementsOfRole(template, roleId)) {
    const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
    for (const action of actionsOf([statement]).filter((a) => a.toLowerCase().startsWith('dynamodb:'))) {
      expect(statement.Effect, action).toBe('Allow');
      const { Condition } = statement as { Condition?: Record<string, Record<string, unknown>> };
      grants[action] = [...(grants[action] ?? []), ...resources.map((r) => grantName(r, Condition))].sort();
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
  it('pin every function of the stack: each deployed route and each consumer, and no other', () => {
    const ids = [...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id).sort();
    expect([...functionsById.keys()].sort()).toEqual(ids);
    expect(Object.keys(EXPECTED_GRANTS).sort()).toEqual(ids);
  });

  it.each(Object.entries(EXPECTED_GRANTS))(
    '%s may use exactly these DynamoDB actions on exactly these resources',
    (id, expected) => {
      const fn = functionsById.get(id);
      if (!fn) throw new Error(`the stack has no function ${id}`);
      expect(dynamodbGrantsOf(fn)).toEqual(expected);
    },
  );
});

describe('DynamoDB grants the verification slots need, on the rows themselves', () => {
  // The idempotency middleware's grant holds DeleteItem too; the rows must not lean on it.
  it.each([
    ['CreateVerifyAccount', ['DeleteItem', 'PutItem', 'Query']],
    ['VerifyAccountDebits', ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem']],
  ])('%s declares the slot Query, the claim (PutItem), its release (DeleteItem) and its own write', (id, actions) => {
    const row = ROUTES.find((route) => route.id === id);
    expect([...(row?.table?.actions ?? [])].sort()).toEqual(actions);
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
