import { Template } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { TENANT_ALIAS_RESOURCE_TYPE, TENANT_SETTINGS_RESOURCE_TYPE } from '#lib/constructs/tenant-records';
import {
  CONSUMERS,
  type ConsumerDefinition,
  deployedRoutes,
  ROUTES,
  type RouteDefinition,
  routeKey,
  type TableAccess,
  tableAccessOf,
  tableAccessOfRoute,
} from '#lib/service/index';
import { splitTenantAccess } from '#lib/service/tenant-access';
import type { Entity } from '#shared/db/entities';
import { type KeyKind, keyPattern, tenantKeyPattern } from '#shared/db/key-kinds';
import { buildApp, propsOf, type Resources, refId, resourcesOf } from './harness';
import { sampleKeys } from './sample-keys';

/**
 * Which items each role of the synthesized template may write, key by key, read from the
 * template's IAM policies alone (never from the stack's constructs) and held against the
 * rows of lib/service. A tiny evaluator of a role's statements: a write of an item is
 * allowed when an Allow names the action on the table's ARN and its condition holds for the
 * item's partition key (`dynamodb:LeadingKeys` with `ForAllValues:StringLike`; `Null` false,
 * since every single-item call has the key), and no Deny naming the action on the table
 * matches the key (`ForAnyValue:StringLike`). Any other condition makes the evaluator throw
 * rather than guess.
 */

/** Every DynamoDB action that writes an item: what the explicit Deny must name. */
const WRITES = [
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteItem',
  'dynamodb:PartiQLDelete',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
];
/** The write actions a row can name (TABLE_ACTIONS). */
const ROW_WRITES: readonly string[] = ['PutItem', 'UpdateItem', 'DeleteItem'];

const SAMPLE_KEYS = sampleKeys('acme');

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

/** The LeadingKeys patterns an Allow is confined to (`ForAllValues:StringLike`); undefined when it names none. */
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

/** The LeadingKeys patterns a Deny names (`ForAnyValue:StringLike`); undefined for an unconditional Deny. */
function deniedKeysOf(statement: Statement): string[] | undefined {
  let patterns: string[] | undefined;
  for (const [operator, entries] of Object.entries(statement.Condition ?? {})) {
    for (const [key, value] of Object.entries(entries)) {
      if (operator === 'ForAnyValue:StringLike' && key === 'dynamodb:LeadingKeys') patterns = listOf(value as string);
      else throw new Error(`the evaluator does not know the condition ${operator} ${key} on a Deny`);
    }
  }
  return patterns;
}

/** A statement names `action` on the table itself. */
const onTable = (statement: Statement, action: string, tableArn: string): boolean =>
  listOf(statement.Action).includes(action) &&
  listOf(statement.Resource).some((resource) => JSON.stringify(resource) === tableArn);

/** Whether the statement allows `action` on an item of the table whose partition key is `pk`. */
function allows(statement: Statement, action: string, pk: string, tableArn: string): boolean {
  if (statement.Effect !== 'Allow' || !onTable(statement, action, tableArn)) return false;
  const patterns = leadingKeysOf(statement);
  return patterns === undefined || patterns.some((pattern) => like(pattern, pk));
}

/** Whether the statement denies `action` on an item of the table whose partition key is `pk`. */
function denies(statement: Statement, action: string, pk: string, tableArn: string): boolean {
  if (statement.Effect !== 'Deny' || !onTable(statement, action, tableArn)) return false;
  const patterns = deniedKeysOf(statement);
  return patterns === undefined || patterns.some((pattern) => like(pattern, pk));
}

/** IAM's verdict for a role's statements: some Allow and no Deny. */
const mayDo = (statements: readonly Statement[], action: string, pk: string, tableArn: string): boolean =>
  statements.some((s) => allows(s, action, pk, tableArn)) && !statements.some((s) => denies(s, action, pk, tableArn));

type Row = RouteDefinition | ConsumerDefinition;

/** One role of a template: its statements, and what it serves as the template says. */
interface TemplateRole {
  readonly logicalId: string;
  /** The row of the function it runs, found by the function's description (a route key, a consumer's). */
  readonly row?: Row;
  /** It runs the provider of the tenant-alias and settings custom resources. */
  readonly provider: boolean;
  readonly statements: readonly Statement[];
  /** Its function's tenant role's statements, as the template has them (`${aws:PrincipalTag/tenant}`); none without one. */
  readonly tenantStatements: readonly Statement[];
  /** It is the tenant role of this row's function (lib/constructs/tenant-role.ts). */
  readonly tenantRoleOf?: Row;
  readonly name: string;
}

/** A row's table grant: its own accesses, and for a route the HTTP stack's share. */
const grantOf = (row: Row): readonly TableAccess[] => ('method' in row ? tableAccessOfRoute(row) : tableAccessOf(row));

/** The kinds a row's grant writes (accesses with a write action). */
const writtenKindsOf = (row: Row): string[] =>
  grantOf(row)
    .filter((access) => access.actions.some((action) => ROW_WRITES.includes(action)))
    .flatMap((access) => access.leadingKeys ?? []);

/**
 * Every IAM role of the template with every statement of every policy attached to it (its
 * inline policies and the `AWS::IAM::Policy` resources naming it), and what it runs: the
 * function whose `Role` it is tells the row by its description, and the function the
 * tenant-record custom resources' `ServiceToken` names is the provider.
 */
function templateRoles(template: Template, rows: readonly Row[]): TemplateRole[] {
  const rowsByDescription = new Map<string, Row>(
    rows.map((row) => ['method' in row ? routeKey(row) : consumerDescription(row), row]),
  );
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  const providers = new Set(
    [TENANT_ALIAS_RESOURCE_TYPE, TENANT_SETTINGS_RESOURCE_TYPE].flatMap((type) =>
      Object.values(resourcesOf(template, type)).map((r) => refId(r.Properties?.ServiceToken)),
    ),
  );
  const policies = Object.entries(resourcesOf(template, 'AWS::IAM::Policy')).map(([id, p]) => propsOf(p, id));
  const statementsOf = (logicalId: string, role: Resources[string]): Statement[] => [
    ...((role.Properties?.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
      (policy) => policy.PolicyDocument.Statement,
    ),
    ...policies
      .filter((policy) => ((policy.Roles ?? []) as unknown[]).some((r) => refId(r) === logicalId))
      .flatMap((policy) => policy.PolicyDocument.Statement as Statement[]),
  ];
  const rolesById = resourcesOf(template, 'AWS::IAM::Role');
  // A function's tenant role is the one its TENANT_ROLE_ARN names.
  const tenantRoles = new Map<string, Row | undefined>(
    Object.values(functions).flatMap((f) => {
      const tenantRole = refId(f.Properties?.Environment?.Variables?.TENANT_ROLE_ARN);
      return tenantRole ? [[tenantRole, rowsByDescription.get(String(f.Properties?.Description))] as const] : [];
    }),
  );
  return Object.entries(rolesById).map(([logicalId, role]) => {
    const served = Object.entries(functions).filter(([, f]) => refId(f.Properties?.Role) === logicalId);
    const row = served.map(([, f]) => rowsByDescription.get(String(f.Properties?.Description))).find(Boolean);
    const tenantRole = served
      .map(([, f]) => refId(f.Properties?.Environment?.Variables?.TENANT_ROLE_ARN))
      .find(Boolean);
    const provider = served.some(([id]) => providers.has(id));
    const tenantRoleOf = tenantRoles.get(logicalId);
    return {
      logicalId,
      row,
      provider,
      statements: statementsOf(logicalId, role),
      tenantStatements: tenantRole ? statementsOf(tenantRole, rolesById[tenantRole] as Resources[string]) : [],
      ...(tenantRoleOf && { tenantRoleOf }),
      name:
        row?.id ??
        (provider
          ? `${logicalId} (tenant-records provider)`
          : tenantRoleOf
            ? `${tenantRoleOf.id}'s tenant role`
            : logicalId),
    };
  });
}

/** The policy variable a tenant role names its session's tenant by. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: IAM's policy variable, as the template has it
const TAG = '${aws:PrincipalTag/tenant}';

/**
 * What a function may do while it acts for `tenant`: its own role's statements and its
 * tenant role's, as IAM reads them in a session tagged with that tenant.
 */
const actingAs = (role: TemplateRole, tenant: string): Statement[] => [
  ...role.statements,
  ...role.tenantStatements.map((statement) => JSON.parse(JSON.stringify(statement).replaceAll(TAG, tenant))),
];

const template = Template.fromStack(buildApp().stack);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));
const TABLE_ARN = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });
const rows: readonly Row[] = [...deployedRoutes(ROUTES), ...CONSUMERS];
const roles = templateRoles(template, rows);
const rowRoles = roles.filter((role) => role.row !== undefined);
const readOnlyRoutes = rowRoles.filter((role) => role.row && 'method' in role.row && role.row.method === 'GET');
const PATTERN_OF = {
  CLIENT: keyPattern('tenantAlias'),
  TENANT: keyPattern('tenantSettings'),
  SCREEN: keyPattern('screeningEntry'),
};

/** The Allow statements of a role that write: each as its sorted actions, resources and key patterns. */
const writingAllows = (role: TemplateRole) =>
  [...role.statements, ...role.tenantStatements]
    .filter((s) => s.Effect === 'Allow' && listOf(s.Action).some((action) => WRITES.includes(action)))
    .map((s) => ({
      actions: listOf(s.Action).sort(),
      resources: listOf(s.Resource).map((r) => (JSON.stringify(r) === TABLE_ARN ? 'table' : JSON.stringify(r))),
      leadingKeys: leadingKeysOf(s)?.sort() ?? 'none: every item',
    }));

/**
 * What a row's grant declares for its writing accesses, in the same shape: a tenant's kinds
 * as its tenant role names them (the session tenant's keys), the rest by kind.
 */
const declaredWrites = (row: Row) => {
  const { tenant, own } = splitTenantAccess(grantOf(row), row.crossTenant === undefined);
  const writing = (accesses: readonly TableAccess[], pattern: (kind: KeyKind) => string) =>
    accesses
      .filter((access) => access.actions.some((action) => ROW_WRITES.includes(action)))
      .map((access) => ({
        actions: access.actions.map((action) => `dynamodb:${action}`).sort(),
        resources: ['table'],
        leadingKeys: (access.leadingKeys ?? []).map(pattern).sort(),
      }));
  return [...writing(tenant, (kind) => tenantKeyPattern(kind, TAG)), ...writing(own, keyPattern)];
};

const byJson = <T>(list: T[]): T[] => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('the roles of the template', () => {
  it('are found: one per function row, the tenant-records provider, and no other but the data-key generators', () => {
    expect(rowRoles.map((role) => role.row?.id).sort()).toEqual(rows.map((row) => row.id).sort());
    expect(roles.filter((role) => role.provider)).toHaveLength(1);
    // Not vacuous: the template has more roles than rows (the provider, the generators).
    expect(roles.length).toBeGreaterThan(rows.length + 1);
  });
});

describe('table writes confined by key (dynamodb:LeadingKeys), role by role, from the template', () => {
  it.each(rowRoles.map((role) => [role.name, role] as const))(
    '%s: every Allow that writes the table carries a LeadingKeys condition whose patterns are exactly those its row declares for those actions',
    (_, role) => {
      expect(byJson(writingAllows(role))).toEqual(byJson(declaredWrites(role.row as Row)));
    },
  );

  it.each(
    roles.filter((role) => !role.row && !role.provider && !role.tenantRoleOf).map((role) => [role.name, role] as const),
  )('%s (no row, no tenant records) is allowed no write at all', (_, role) => {
    expect(writingAllows(role)).toEqual([]);
  });

  it.each(readOnlyRoutes.map((role) => [role.name, role] as const))(
    '%s (a read-only route) can write no data item, alias, setting or screening entry, only the HTTP stack’s own records',
    (_, role) => {
      const acme = actingAs(role, 'acme');
      const writable = DATA_KEYS.flatMap(([entity, pk]) =>
        WRITES.filter((action) => mayDo(acme, action, pk, TABLE_ARN)).map((a) => `${a} ${entity} (${pk})`),
      );
      expect(writable).toEqual([]);
      // Not vacuous: it does write its tenant's token bucket.
      expect(mayDo(acme, 'dynamodb:UpdateItem', SAMPLE_KEYS.rate_bucket, TABLE_ARN)).toBe(true);
    },
  );

  it.each(readOnlyRoutes.map((role) => [role.name, role] as const))(
    '%s reads and writes list positions only when it is a list, and only under their prefix',
    (_, role) => {
      const isList = (role.row as RouteDefinition).listPositions === true;
      const acme = actingAs(role, 'acme');
      // A route that reads its items by key may read any key; only a list writes a position.
      expect(mayDo(acme, 'dynamodb:PutItem', SAMPLE_KEYS.list_position, TABLE_ARN)).toBe(isList);
      if (isList) expect(mayDo(acme, 'dynamodb:GetItem', SAMPLE_KEYS.list_position, TABLE_ARN)).toBe(true);
      const positions = [...role.statements, ...role.tenantStatements].filter(
        (s) =>
          s.Effect === 'Allow' &&
          listOf(s.Resource).some((r) => JSON.stringify(r) === TABLE_ARN) &&
          leadingKeysOf(s)?.some((pattern) => pattern.startsWith('PAGE#')),
      );
      expect(positions.map((s) => [listOf(s.Action).sort(), leadingKeysOf(s)])).toEqual(
        isList
          ? [[['dynamodb:GetItem', 'dynamodb:PutItem'], [role.row?.crossTenant ? 'PAGE#*' : `PAGE#${TAG}#*`]]]
          : [],
      );
    },
  );

  it('has every deployed list among them, and read-only routes that are no list', () => {
    const ids = readOnlyRoutes.map((role) => role.row?.id);
    const lists = deployedRoutes(ROUTES).filter((route) => route.listPositions);

    expect(lists.length).toBeGreaterThan(0);
    expect(ids).toEqual(expect.arrayContaining(lists.map((route) => route.id)));
    expect(readOnlyRoutes.filter((role) => !(role.row as RouteDefinition).listPositions).length).toBeGreaterThan(0);
  });
});

describe('aliases and settings (CLIENT#, TENANT#): the tenant-records provider’s alone', () => {
  it.each(roles.map((role) => [role.name, role] as const))(
    '%s may write an alias or a setting only if it is the provider; every other role holds the explicit Deny of every write',
    (_, role) => {
      for (const pk of [SAMPLE_KEYS.tenant_alias, SAMPLE_KEYS.tenant_settings]) {
        const writable = WRITES.filter((action) => mayDo(role.statements, action, pk, TABLE_ARN));
        expect(writable, pk).toEqual(role.provider ? ['dynamodb:DeleteItem', 'dynamodb:PutItem'] : []);
        // The Deny, whatever else the role is allowed: a later unconfined grant still cannot reach them.
        const denied = WRITES.filter((action) => role.statements.some((s) => denies(s, action, pk, TABLE_ARN)));
        expect(denied, pk).toEqual(role.provider ? [] : WRITES);
      }
    },
  );
});

describe('screening entries (SCREEN#): only rows that write them', () => {
  const screeningWriters = (withRoles: readonly TemplateRole[]) =>
    withRoles.filter((role) => role.row && writtenKindsOf(role.row).includes('screeningEntry'));

  it.each(roles.map((role) => [role.name, role] as const))(
    '%s may write a screening entry only if its row writes them, and is denied them otherwise',
    (_, role) => {
      const writer = role.row !== undefined && writtenKindsOf(role.row).includes('screeningEntry');
      const pk = SAMPLE_KEYS.screening_listing;
      expect(mayDo(role.statements, 'dynamodb:PutItem', pk, TABLE_ARN)).toBe(writer);
      const denied = WRITES.filter((action) => role.statements.some((s) => denies(s, action, pk, TABLE_ARN)));
      expect(denied).toEqual(writer ? [] : WRITES);
    },
  );

  it('one deployed row writes screening entries: the daily refresh of the lists (no function a partner’s request reaches)', () => {
    expect(screeningWriters(roles).map((role) => role.row?.id)).toEqual(['ListsRefresh']);
  });

  it('another deployed row that writes them (the local-only AddSanctionsEntry, deployed for this test) is allowed exactly them, and still denied aliases and settings', () => {
    const withWriter = [
      ...ROUTES.map((route) => (route.id === 'AddSanctionsEntry' ? { ...route, localOnly: false } : route)),
    ];
    const probe = Template.fromStack(buildApp({ stackProps: { routes: withWriter } }).stack);
    const [probeTable] = Object.keys(resourcesOf(probe, 'AWS::DynamoDB::Table'));
    const probeArn = JSON.stringify({ 'Fn::GetAtt': [probeTable, 'Arn'] });
    const probeRoles = templateRoles(probe, [...deployedRoutes(withWriter), ...CONSUMERS]);
    const writers = screeningWriters(probeRoles);
    expect(writers.map((role) => role.row?.id)).toEqual(['AddSanctionsEntry', 'ListsRefresh']);
    const writer = writers.find((role) => role.row?.id === 'AddSanctionsEntry') as TemplateRole;
    expect(mayDo(writer.statements, 'dynamodb:PutItem', SAMPLE_KEYS.screening_listing, probeArn)).toBe(true);
    expect(mayDo(writer.statements, 'dynamodb:PutItem', SAMPLE_KEYS.tenant_alias, probeArn)).toBe(false);
    expect(
      WRITES.filter((a) => writer.statements.some((s) => denies(s, a, SAMPLE_KEYS.screening_listing, probeArn))),
    ).toEqual([]);
    for (const role of probeRoles.filter((r) => !writers.includes(r))) {
      expect(mayDo(role.statements, 'dynamodb:PutItem', SAMPLE_KEYS.screening_listing, probeArn), role.name).toBe(
        false,
      );
    }
  });
});

describe('the evaluator', () => {
  const table = { 'Fn::GetAtt': [tableId, 'Arn'] };
  const put = (effect: string, condition?: Statement['Condition']): Statement => ({
    Effect: effect,
    Action: ['dynamodb:PutItem'],
    Resource: table,
    ...(condition && { Condition: condition }),
  });
  const confined = (...patterns: string[]) =>
    put('Allow', {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
      Null: { 'dynamodb:LeadingKeys': 'false' },
    });
  const deny = (...patterns: string[]) =>
    put('Deny', { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': patterns } });

  it('tells an unconfined write, a data-matching pattern and a confined one apart', () => {
    expect(allows(put('Allow'), 'dynamodb:PutItem', SAMPLE_KEYS.person, TABLE_ARN)).toBe(true);
    expect(allows(confined('T#*'), 'dynamodb:PutItem', SAMPLE_KEYS.person, TABLE_ARN)).toBe(true);
    expect(allows(confined('T#acme#?#*'), 'dynamodb:PutItem', SAMPLE_KEYS.person, TABLE_ARN)).toBe(true);
    expect(allows(confined('RATE#*'), 'dynamodb:PutItem', 'T#acme#P#id-2', TABLE_ARN)).toBe(false);
    expect(allows(confined('RATE#*', 'IDEM#*'), 'dynamodb:PutItem', 'RATE#acme', TABLE_ARN)).toBe(true);
    expect(allows(confined('RATE#*'), 'dynamodb:PutItem', 'T#RATE#acme', TABLE_ARN)).toBe(false);
    expect(allows(confined('T#*'), 'dynamodb:DeleteItem', SAMPLE_KEYS.person, TABLE_ARN)).toBe(false);
    expect(allows(confined('T#*'), 'dynamodb:PutItem', SAMPLE_KEYS.tenant_settings, TABLE_ARN)).toBe(false);
    expect(() => leadingKeysOf(put('Allow', { StringEquals: { 'aws:SourceVpc': 'vpc-1' } }))).toThrow();
    // A statement CDK renders from a PolicyStatement reads the same.
    const rendered = new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: ['arn'] }).toStatementJson();
    expect(leadingKeysOf(rendered as Statement)).toBeUndefined();
  });

  it('lets a Deny win over any Allow, an unconfined one too, for the keys it names only', () => {
    const statements = [put('Allow'), deny(PATTERN_OF.CLIENT, PATTERN_OF.TENANT)];
    expect(mayDo(statements, 'dynamodb:PutItem', SAMPLE_KEYS.tenant_alias, TABLE_ARN)).toBe(false);
    expect(mayDo(statements, 'dynamodb:PutItem', SAMPLE_KEYS.tenant_settings, TABLE_ARN)).toBe(false);
    expect(mayDo(statements, 'dynamodb:PutItem', SAMPLE_KEYS.person, TABLE_ARN)).toBe(true);
    expect(() => deniedKeysOf(put('Deny', { StringEquals: { 'aws:SourceVpc': 'vpc-1' } }))).toThrow();
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
