import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import type { ServiceFunction } from '#lib/constructs/service-function';
import { CONSUMERS, deployedRoutes, ROUTES, tableAccessOf } from '#lib/service/index';
import type { Entity } from '#shared/db/entities';
import { eventKeys } from '#shared/db/events/keys';
import { keys } from '#shared/db/keys';
import { positionKeys } from '#shared/db/list-positions/index';
import { personKeys } from '#shared/db/persons/keys';
import { screeningKeys } from '#shared/db/screening/keys';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { webhookKeys } from '#shared/db/webhooks/keys';
import { setDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';
import { buildApp, resourcesOf, statementsOfRole } from './harness';

/**
 * Which items a role may write, key by key. A tiny evaluator of the role's statements:
 * a statement allows a write on an item of the table when it is an Allow of the action on
 * the table's ARN and its condition holds for the item's partition key
 * (`dynamodb:LeadingKeys` with `ForAllValues:StringLike`; `Null` false, since every
 * single-item call has the key). Any other condition makes the evaluator throw rather
 * than guess.
 */

const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

// Digested keys (slots, references, idempotency records) need a digest key; any will do.
setDependencies({ digestKey: new DigestKey(Buffer.alloc(32, 1)) });

/**
 * One partition key of every kind of item the table holds, by its `entity`. Typed over
 * every entity, so a new one must be listed here before the suite compiles.
 */
const SAMPLE_KEYS = {
  verify_account: accountKeys.account('acme', 'id-1').pk,
  verification_slot: accountKeys.slots('acme', '021000021', '123456789'),
  idempotency: keys.idempotency('acme', 'POST /verify/accounts', 'key-1').pk,
  tenant_alias: keys.tenantAlias('client-1').pk,
  event: eventKeys.event('acme', 'evt-1').pk,
  delivery_attempt: eventKeys.attempt('acme', 'evt-1', 0).pk,
  person: personKeys.person('acme', 'id-2').pk,
  person_reference: personKeys.reference('acme', 'ref-1').pk,
  review_case: personKeys.reviewCase('acme', 'id-2', '2026-01-01T00:00:00.000Z').pk,
  screening_entry: screeningKeys.entry('ofac', 'jane doe', 'entry-1').pk,
  tenant_settings: keys.tenantSettings('acme').pk,
  rate_bucket: keys.rateBucket('acme').pk,
  webhook_configuration: webhookKeys.configuration('acme', 'cfg-1').pk,
  webhook_configuration_count: webhookKeys.configurationCount('acme').pk,
  webhook_secret: webhookKeys.secret('acme').pk,
  redelivery_pace: eventKeys.redeliveryPace('acme').pk,
  list_position: positionKeys.cursor('acme', 'AAAAAAAAAAAAAAAAAAAAAA').pk,
} as const satisfies Record<Entity, string>;

/** The HTTP middleware stack's own records and a list's positions: the only ones a route may write beyond its row. */
const HTTP_STACK_RECORDS: readonly Entity[] = ['idempotency', 'rate_bucket', 'list_position'];
/** Every other item: tenants' data, screening lists, and the client → tenant mapping and settings. */
const DATA_KEYS = Object.entries(SAMPLE_KEYS).filter(([entity]) => !HTTP_STACK_RECORDS.includes(entity as Entity));

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const { stack } = buildApp();
const template = Template.fromStack(stack);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));
const TABLE_ARN = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });

const listOf = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** IAM's StringLike: `*` any run of characters, `?` one. */
const like = (pattern: string, value: string): boolean =>
  new RegExp(
    `^${pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  ).test(value);

/** The LeadingKeys patterns a statement is confined to; undefined when it names none. */
function leadingKeysOf(statement: Statement): string[] | undefined {
  let patterns: string[] | undefined;
  for (const [operator, entries] of Object.entries(statement.Condition ?? {})) {
    for (const [key, value] of Object.entries(entries)) {
      if (operator === 'ForAllValues:StringLike' && key === 'dynamodb:LeadingKeys') patterns = listOf(value as string);
      else if (!(operator === 'Null' && key === 'dynamodb:LeadingKeys' && String(value) === 'false')) {
        throw new Error(`the evaluator does not know the condition ${operator} ${key}`);
      }
    }
  }
  return patterns;
}

/** Whether the statement allows `action` on an item of the table whose partition key is `pk`. */
function allows(statement: Statement, action: string, pk: string): boolean {
  if (statement.Effect !== 'Allow' || !listOf(statement.Action).includes(action)) return false;
  if (!listOf(statement.Resource).some((resource) => JSON.stringify(resource) === TABLE_ARN)) return false;
  const patterns = leadingKeysOf(statement);
  return patterns === undefined || patterns.some((pattern) => like(pattern, pk));
}

const rows = [...deployedRoutes(ROUTES), ...CONSUMERS];
const functionsById = new Map<string, ServiceFunction>([...stack.functions, ...stack.pipeline.consumers]);
const statementsOf = (id: string): Statement[] => {
  const fn = functionsById.get(id);
  if (!fn) throw new Error(`the stack has no function ${id}`);
  return statementsOfRole(template, stack.getLogicalId(fn.role.node.defaultChild as CfnElement)) as Statement[];
};
const readOnlyRoutes = deployedRoutes(ROUTES).filter((route) => route.method === 'GET');

describe('table writes confined by key (dynamodb:LeadingKeys)', () => {
  it.each(rows.map((row) => [row.id, row] as const))(
    '%s may write any item only with the actions of its own row: every other write is confined to named key prefixes',
    (id, row) => {
      const onTable = statementsOf(id).filter((s) => listOf(s.Resource).some((r) => JSON.stringify(r) === TABLE_ARN));
      const unconfined = onTable.filter((s) => s.Effect === 'Allow' && leadingKeysOf(s) === undefined);
      const writes = [...new Set(unconfined.flatMap((s) => listOf(s.Action)).filter((a) => WRITES.includes(a)))];
      const own = tableAccessOf(row).flatMap((access) => access.actions.map((action) => `dynamodb:${action}`));
      expect(writes.filter((action) => !own.includes(action))).toEqual([]);
    },
  );

  it.each(readOnlyRoutes.map((route) => [route.id] as const))(
    '%s (a read-only route) can write no data item, alias or setting, only the HTTP stack’s own records',
    (id) => {
      const statements = statementsOf(id);
      const writable = DATA_KEYS.flatMap(([entity, pk]) =>
        WRITES.filter((action) => statements.some((s) => allows(s, action, pk))).map((a) => `${a} ${entity} (${pk})`),
      );
      expect(writable).toEqual([]);
      // Not vacuous: it does write its tenant's token bucket.
      expect(statements.some((s) => allows(s, 'dynamodb:UpdateItem', SAMPLE_KEYS.rate_bucket))).toBe(true);
    },
  );

  it.each(readOnlyRoutes.map((route) => [route.id, route.listPositions === true] as const))(
    '%s reads and writes list positions only when it is a list (%s), and only under their prefix',
    (id, isList) => {
      const statements = statementsOf(id);
      // A route that reads its items by key may read any key; only a list writes a position.
      expect(statements.some((s) => allows(s, 'dynamodb:PutItem', SAMPLE_KEYS.list_position))).toBe(isList);
      if (isList) expect(statements.some((s) => allows(s, 'dynamodb:GetItem', SAMPLE_KEYS.list_position))).toBe(true);
      const onTable = statements.filter((s) => listOf(s.Resource).some((r) => JSON.stringify(r) === TABLE_ARN));
      const positions = onTable.filter((s) => leadingKeysOf(s)?.some((pattern) => pattern.startsWith('PAGE#')));
      expect(positions.map((s) => [listOf(s.Action).sort(), leadingKeysOf(s)])).toEqual(
        isList ? [[['dynamodb:GetItem', 'dynamodb:PutItem'], ['PAGE#*']]] : [],
      );
    },
  );

  it('has list routes among them', () => {
    expect(readOnlyRoutes.filter((route) => route.listPositions).map((route) => route.id)).toEqual(
      expect.arrayContaining(['ListVerifyAccounts', 'ListPersons', 'ListEvents']),
    );
  });

  it('has read-only routes to check', () => {
    expect(readOnlyRoutes.map((route) => route.id)).toEqual(
      expect.arrayContaining(['GetVerifyAccount', 'GetPerson', 'ListEvents', 'GetWebhookSecret']),
    );
  });

  it('the evaluator tells an unconfined write, a data-matching pattern and a confined one apart', () => {
    const table = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const put = (condition?: Statement['Condition']): Statement => ({
      Effect: 'Allow',
      Action: ['dynamodb:PutItem'],
      Resource: table,
      ...(condition && { Condition: condition }),
    });
    const confined = (...patterns: string[]) =>
      put({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
        Null: { 'dynamodb:LeadingKeys': 'false' },
      });
    expect(allows(put(), 'dynamodb:PutItem', SAMPLE_KEYS.person)).toBe(true);
    expect(allows(confined('T#*'), 'dynamodb:PutItem', SAMPLE_KEYS.person)).toBe(true);
    expect(allows(confined('T#acme#?#*'), 'dynamodb:PutItem', SAMPLE_KEYS.person)).toBe(true);
    expect(allows(confined('RATE#*'), 'dynamodb:PutItem', 'T#acme#P#id-2')).toBe(false);
    expect(allows(confined('RATE#*', 'IDEM#*'), 'dynamodb:PutItem', 'RATE#acme')).toBe(true);
    expect(allows(confined('RATE#*'), 'dynamodb:PutItem', 'T#RATE#acme')).toBe(false);
    expect(allows(confined('T#*'), 'dynamodb:DeleteItem', SAMPLE_KEYS.person)).toBe(false);
    expect(() => leadingKeysOf(put({ StringEquals: { 'aws:SourceVpc': 'vpc-1' } }))).toThrow();
    // A statement CDK renders from a PolicyStatement reads the same.
    const rendered = new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: ['arn'] }).toStatementJson();
    expect(leadingKeysOf(rendered as Statement)).toBeUndefined();
  });
});

describe('sample keys', () => {
  it('are the keys the HTTP stack writes apart from every data item: no data key starts like its records', () => {
    for (const entity of HTTP_STACK_RECORDS) {
      const prefix = SAMPLE_KEYS[entity as keyof typeof SAMPLE_KEYS].split('#')[0];
      for (const [, pk] of DATA_KEYS) expect(pk.split('#')[0]).not.toBe(prefix);
    }
  });
});
