import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { CONSUMERS, deployedRoutes, ROUTES } from '../../lib/service';
import { actionsOf, buildApp, propsOf, resourcesOf, type Statement, statementsOfRole } from './harness';

const { stack } = buildApp();
const template = Template.fromStack(stack);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));

/**
 * Every route also reads the tenant's alias and settings and takes a token from its bucket
 * (GetItem; an atomic UpdateItem, and when empty a conditional PutItem:
 * functions/shared/http/table-access.ts).
 *
 * Every function of the stack and exactly what it may do with DynamoDB: each action with
 * the resources it is allowed on. Written out by hand, not derived from the rows, so that
 * a changed row (or a changed middleware need) fails here and is reviewed as a change of
 * permissions. `table` is the table's ARN, `table/index/<name>` an index's, `stream` the
 * table stream's.
 */
const EXPECTED_GRANTS: Record<string, Record<string, string[]>> = {
  // A Query of the verification slots, a put claiming one (deleted again if the account's
  // put fails) and the account's put; the middleware's tenant alias (GetItem) and
  // idempotency record (Put/Update/DeleteItem).
  CreateVerifyAccount: onTable('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
  // The slim list indexes only (never the table's own keys), then the page's items by key.
  ListVerifyAccounts: {
    ...onTable('BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'),
    'dynamodb:Query': ['table/index/gsi1', 'table/index/gsi2'],
  },
  GetVerifyAccount: onTable('GetItem', 'PutItem', 'UpdateItem'),
  VerifyAccountControl: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  // The account, a Query of the verification slots, a put claiming one, the versioned
  // update (a conflict deletes the claim again); the middleware's tenant alias and
  // idempotency record.
  VerifyAccountDebits: onTable('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
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
  // One transaction: the person and its reference uniqueness item; the middleware's tenant
  // alias and idempotency record.
  CreatePerson: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  ListPersons: {
    ...onTable('BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'),
    'dynamodb:Query': ['table/index/gsi1'],
  },
  GetPerson: onTable('GetItem', 'PutItem', 'UpdateItem'),
  // A versioned write; a new reference id puts its uniqueness item and deletes the old one.
  UpdatePerson: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  ReplacePerson: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  UpsertPerson: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  ClosePerson: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  // The person, the tenant's KYC setting, the screening entries of its name (table keys),
  // a review case, the outcome.
  IdentificationWorker: onTable('GetItem', 'PutItem', 'Query', 'UpdateItem'),
  ScreeningWorker: { ...onTable('GetItem', 'Query', 'UpdateItem'), 'dynamodb:Query': ['table', 'table/index/gsi2'] },
  DailyRescreen: { 'dynamodb:Query': ['table/index/gsi1'] },
  ListEvents: {
    ...onTable('BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'),
    'dynamodb:Query': ['table/index/gsi1'],
  },
  // The event and its delivery attempts (one Query of the event's own partition).
  GetEvent: onTable('GetItem', 'PutItem', 'Query', 'UpdateItem'),
  // The event and the tenant's redelivery pace (read, then each paced by a conditional
  // UpdateItem), then the tenant's configurations (one table partition) to fan it out.
  RedeliverEvent: onTable('DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'),
  // The test event is stored; the stream publishes it.
  InvokeWebhook: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  // The event and its attempts (one Query of the event's partition, to drop an attempt already
  // recorded), its configuration and secrets; each attempt recorded beside the event.
  WebhookDeliveryWorker: onTable('GetItem', 'PutItem', 'Query'),
  // One transaction: the configuration and the tenant's count; the middleware's tenant alias
  // and idempotency record.
  CreateWebhookConfiguration: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  // The configuration partition on the table's own keys; no index.
  ListWebhookConfigurations: onTable('GetItem', 'PutItem', 'Query', 'UpdateItem'),
  ReplaceWebhookConfiguration: onTable('GetItem', 'PutItem', 'UpdateItem'),
  DeleteWebhookConfiguration: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  // The secret item read and put back; the middleware's tenant alias and idempotency record.
  CreateWebhookSecret: onTable('DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'),
  GetWebhookSecret: onTable('GetItem', 'PutItem', 'UpdateItem'),
  StatementCodeExpiry: {
    ...onTable('GetItem', 'UpdateItem'),
    'dynamodb:Query': ['table/index/gsi3'],
  },
};

function onTable(...actions: string[]): Record<string, string[]> {
  return Object.fromEntries(actions.map((action) => [`dynamodb:${action}`, ['table']]));
}

/** Every function of the stack by id: the deployed routes' and the consumers'. */
const functionsById = new Map<string, ServiceFunction>([...stack.functions, ...stack.pipeline.consumers]);

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
      grants[action] = [...(grants[action] ?? []), ...resources.map(resourceName)].sort();
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
