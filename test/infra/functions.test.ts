import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { dataKeyGeneratorDescription } from '#lib/constructs/data-key';
import { TENANT_ALIAS_RESOURCE_TYPE } from '#lib/constructs/tenant-records';
import { MINIMUM_NODE } from '#lib/local/preflight';
import {
  API_FUNCTION_TIMEOUT_SECONDS,
  type CipherAccess,
  CONSUMERS,
  dataKeysOf,
  deployedRoutes,
  ROUTES,
  type RouteDefinition,
  routeKey,
  type TableAccess,
  tableAccessOf,
  tableAccessOfRoute,
} from '#lib/service/index';
import { splitTenantAccess } from '#lib/service/tenant-access';
import { ENV as CONFIG_ENV } from '#shared/config';
import { DATA_KEYS, type DataKeyPurpose } from '#shared/data-key/index';
import { keyPattern } from '#shared/db/key-kinds';
import { TABLE_SCHEMA } from '#shared/db/schema';
import {
  actionsOf,
  functionByDescription,
  kmsKeyIds,
  refId,
  resourcesOf,
  statementsOfRole,
  synthTemplate,
  viaService,
} from './harness';

const template = synthTemplate();
const functions = resourcesOf(template, 'AWS::Lambda::Function');
const { cipher: cipherKeyId } = kmsKeyIds(template);
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));

/** What the service description says about one function: a route's or a consumer's row. */
interface FunctionRow {
  readonly description: string;
  /**
   * The table accesses its own role holds (a route's own, then what the HTTP middleware
   * stack adds): all of them for a function that crosses tenants, else only those to
   * records of no tenant, the rest being its tenant role's (`splitTenantAccess`, pinned in
   * test/infra/table-grants.test.ts and test/infra/tenant-roles.test.ts).
   */
  readonly table: readonly TableAccess[];
  /** It acts for one tenant at a time: its own role's index queries are confined to their kinds' partitions too. */
  readonly actsForOneTenant: boolean;
  /** Every table access of its row and shares, on either role: whether it is bound to the table at all. */
  readonly everyTableAccess: readonly TableAccess[];
  readonly cipher?: CipherAccess;
  /** Holds the digest key (a route's with what the HTTP middleware stack adds). */
  readonly digestKey: boolean;
  /** Holds the field key. */
  readonly fieldKey: boolean;
  readonly timeoutSeconds: number;
  /** Fed by the table stream (its event source mapping needs dynamodb:ListStreams). */
  readonly readsStream: boolean;
}
const routeRows = deployedRoutes(ROUTES).map((r): [string, FunctionRow] => [
  routeKey(r),
  {
    description: routeKey(r),
    table: splitTenantAccess(tableAccessOfRoute(r), r.crossTenant === undefined).own,
    actsForOneTenant: r.crossTenant === undefined,
    everyTableAccess: tableAccessOfRoute(r),
    cipher: r.cipher,
    digestKey: dataKeysOf(r).includes('digest-key'),
    fieldKey: dataKeysOf(r).includes('field-key'),
    timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
    readsStream: false,
  },
]);
const consumerRows = CONSUMERS.map((c): [string, FunctionRow] => [
  c.id,
  {
    description: consumerDescription(c),
    table: splitTenantAccess(tableAccessOf(c), c.crossTenant === undefined).own,
    actsForOneTenant: c.crossTenant === undefined,
    everyTableAccess: tableAccessOf(c),
    cipher: c.cipher,
    digestKey: c.digestKey === true,
    fieldKey: c.fieldKey === true,
    timeoutSeconds: c.timeoutSeconds,
    readsStream: c.source.kind === 'table-stream',
  },
]);
/** Every API function (by route key) and every consumer function (by consumer id). */
const byFunction = [...routeRows, ...consumerRows];

const functionOf = (row: Pick<FunctionRow, 'description'>) => functionByDescription(template, row.description).props;
const statementsOf = (row: FunctionRow) => statementsOfRole(template, refId(functionOf(row).Role)!);

const byRoute = routeRows;
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
const indexArn = (name: string) => ({ 'Fn::Join': ['', [tableArn, `/index/${name}`]] });

describe('Lambda functions', () => {
  it('are one per route, one per consumer, plus the one provider of the tenant-alias custom resources and each data key’s generator, and no log-retention or other CDK helper function', () => {
    const apiFunctionIds = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Integration')).map((i) =>
      refId(i.Properties?.IntegrationUri),
    );
    expect(new Set(apiFunctionIds).size).toBe(routeRows.length);
    expect(apiFunctionIds.map((id) => functions[id!]?.Properties?.Description).sort()).toEqual(
      routeRows.map(([key]) => key).sort(),
    );
    const consumerFunctionIds = CONSUMERS.map((c) => functionByDescription(template, consumerDescription(c)).id);
    expect(new Set(consumerFunctionIds).size).toBe(CONSUMERS.length);
    const providerIds = new Set(
      Object.values(resourcesOf(template, TENANT_ALIAS_RESOURCE_TYPE)).map((r) => refId(r.Properties?.ServiceToken)),
    );
    expect(providerIds.size).toBe(1);
    const purposes = Object.keys(DATA_KEYS) as DataKeyPurpose[];
    const generatorIds = purposes.flatMap((purpose) =>
      Object.values(resourcesOf(template, DATA_KEYS[purpose].resourceType)).map((r) =>
        refId(r.Properties?.ServiceToken),
      ),
    );
    expect(generatorIds).toEqual(
      purposes.map((purpose) => functionByDescription(template, dataKeyGeneratorDescription(purpose)).id),
    );
    expect(Object.keys(functions).sort()).toEqual(
      [...apiFunctionIds, ...consumerFunctionIds, ...providerIds, ...generatorIds].sort(),
    );
  });

  it('run on the Node.js major that these tests and the local runtime run on', () => {
    const runtimes = new Set(Object.values(functions).map((fn) => fn.Properties?.Runtime));
    const major = (version: string) => version.replace(/^v/, '').split('.')[0];
    expect([...runtimes]).toEqual([`nodejs${major(process.versions.node)}.x`]);
    expect([...runtimes]).toEqual([`nodejs${major(MINIMUM_NODE)}.x`]);
  });

  it.each(byFunction)(
    '%s runs with the house defaults (Node 24, ARM64, tracing, 512 MB, source maps) and its own timeout',
    (_, row) => {
      const fn = functionOf(row);
      expect(fn).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        MemorySize: 512,
        Timeout: row.timeoutSeconds,
        Handler: 'index.handler',
      });
      expect(fn.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      // A row with no table access is bound to no table (DailyRescreen only sends messages).
      const usesTable = row.everyTableAccess.some(
        (access) => access.actions.length > 0 || (access.indexes ?? []).length > 0,
      );
      expect(refId(fn.Environment.Variables[CONFIG_ENV.tableName])).toBe(usesTable ? tableId : undefined);
      // A function that acts for one tenant at a time and reaches tenants' records assumes its tenant role.
      const tenantRole = splitTenantAccess(row.everyTableAccess, row.actsForOneTenant).tenant.length > 0;
      expect(refId(fn.Environment.Variables[CONFIG_ENV.tenantRoleArn]) !== undefined).toBe(tenantRole);
    },
  );

  it.each(byRoute)("%s stays below API Gateway's 30 s integration limit (10 s)", (_, row) => {
    expect(functionOf(row).Timeout).toBe(10);
  });

  it.each([
    ['the stack as bin/app.ts builds it', template],
    [
      'an external issuer with client ids',
      synthTemplate({
        context: {
          jwtIssuer: 'https://login.example.com/oauth2/default',
          jwtAudience: 'api://verify',
          partners: [{ name: 'acme', clientIds: ['0oa1acme'] }],
        },
      }),
    ],
  ])(
    '%s: no function makes a client id without an alias its own tenant (TENANTS_FROM_CLIENT_IDS is the local runtime’s alone)',
    (_, t) => {
      const variables = Object.values(resourcesOf(t, 'AWS::Lambda::Function')).flatMap((f) =>
        Object.keys(f.Properties?.Environment?.Variables ?? {}),
      );
      expect(variables).toContain(CONFIG_ENV.tableName);
      expect(variables).not.toContain(CONFIG_ENV.tenantsFromClientIds);
    },
  );

  it.each(byFunction)('%s logs to its own log group, kept one month', (_, row) => {
    const logGroupId = refId(functionOf(row).LoggingConfig.LogGroup)!;
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]?.Properties?.RetentionInDays).toBe(30);
    const logStatements = statementsOf(row).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
    expect(logStatements.map((s) => refId(s.Resource))).toEqual([logGroupId]);
  });

  it.each(byFunction)('%s has a role without AWS managed policies', (_, row) => {
    const role = resourcesOf(template, 'AWS::IAM::Role')[refId(functionOf(row).Role)!];
    expect(role?.Properties?.ManagedPolicyArns).toBeUndefined();
  });

  it.each(byFunction)(
    '%s uses the "*" resource only for X-Ray (and, when it reads the table stream, dynamodb:ListStreams), which have no resource-level permissions',
    (_, row) => {
      const wildcard = statementsOf(row).filter((s) => s.Resource === '*' || (s.Resource as unknown[]).includes?.('*'));
      const expected = [
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
        ...(row.readsStream ? ['dynamodb:ListStreams'] : []),
      ];
      expect(actionsOf(wildcard).sort()).toEqual(expected.sort());
    },
  );

  it.each(byFunction)('%s is allowed no wildcard action (no "*", "sqs:*", "kms:*", ...)', (_, row) => {
    for (const action of actionsOf(statementsOf(row))) expect(action).not.toMatch(/(^|:)\*$/);
  });
});

describe("table grants follow the row's table access", () => {
  /** Each DynamoDB action the role allows, with the resources it is allowed on and their key confinement. */
  const dynamodbGrantsOf = (row: FunctionRow) => {
    const grants = new Map<string, unknown[]>();
    // The write guard's Deny (aliases, settings, screening entries) is test/infra/key-confinement.test.ts's.
    for (const statement of statementsOf(row).filter((s) => s.Effect === 'Allow')) {
      const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
      const { Condition } = statement as { Condition?: unknown };
      for (const action of actionsOf([statement]).filter((a) => a.startsWith('dynamodb:'))) {
        const granted = resources.map((resource) => (Condition ? { resource, Condition } : resource));
        grants.set(action, [...(grants.get(action) ?? []), ...granted]);
      }
    }
    return grants;
  };
  const STREAM_READ = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];

  it.each(byFunction)(
    "%s's own role may call exactly the actions of its row on records of no tenant (all its row's, if it crosses tenants) on the table, Query on exactly their indexes (on the table itself only when its row says Query), each under its key confinement, and nothing else of DynamoDB but reading the stream it is fed by",
    (_, row) => {
      const expected = new Map<string, unknown[]>();
      const grant = (action: string, resource: unknown) =>
        expected.set(action, [...(expected.get(action) ?? []), resource]);
      for (const access of row.table) {
        // Item actions under their row's key kinds; an index Query only where the function acts for one tenant.
        const confined = (resource: unknown) =>
          access.leadingKeys && access.leadingKeys.length > 0
            ? {
                resource,
                Condition: {
                  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': access.leadingKeys.map(keyPattern) },
                  Null: { 'dynamodb:LeadingKeys': 'false' },
                },
              }
            : resource;
        for (const action of access.actions) grant(`dynamodb:${action}`, confined(tableArn));
        for (const index of access.indexes ?? []) {
          const arn = indexArn(TABLE_SCHEMA.indexes[index].name);
          grant('dynamodb:Query', row.actsForOneTenant ? confined(arn) : arn);
        }
      }
      if (row.readsStream) {
        for (const action of STREAM_READ) expected.set(action, [streamArn]);
        expected.set('dynamodb:ListStreams', ['*']);
      }
      const sortResources = (grants: Map<string, unknown[]>) =>
        Object.fromEntries(
          [...grants].map(([action, resources]) => [action, resources.map((r) => JSON.stringify(r)).sort()]),
        );
      expect(sortResources(dynamodbGrantsOf(row))).toEqual(sortResources(expected));
    },
  );
});

describe("cipher key grants follow the row's cipher access and data keys", () => {
  /**
   * The statements on the cipher key as `<action> for <purposes>` (the storage key's are
   * pinned in kms-grants.test.ts); a statement without the purpose condition shows as `any purpose`.
   */
  const cipherGrantsOf = (row: FunctionRow) =>
    statementsOf(row)
      .filter((s) => refId(s.Resource) === cipherKeyId)
      .map((s) => {
        const condition = (s as { Condition?: { StringEquals?: Record<string, unknown> } }).Condition;
        const purposes = condition?.StringEquals?.['kms:EncryptionContext:purpose'];
        return `${actionsOf([s]).join(',')} for ${purposes === undefined ? 'any purpose' : [purposes].flat().join(',')}`;
      })
      .sort();

  /** What the row says: each operation only for its purposes, and each data key's decrypt. */
  const expectedGrants = (row: FunctionRow) =>
    [
      ...(row.cipher?.encrypt ? [`kms:Encrypt for ${[...row.cipher.encrypt].sort().join(',')}`] : []),
      ...(row.cipher?.decrypt ? [`kms:Decrypt for ${[...row.cipher.decrypt].sort().join(',')}`] : []),
      ...(row.digestKey ? ['kms:Decrypt for digest-key'] : []),
      ...(row.fieldKey ? ['kms:Decrypt for field-key'] : []),
    ].sort();

  it.each(byFunction)(
    '%s gets exactly the key operations of its row, each only for its purposes, and the key ARN only with one',
    (_, row) => {
      expect(cipherGrantsOf(row)).toEqual(expectedGrants(row));
      const arn = functionOf(row).Environment.Variables[CONFIG_ENV.cipherKeyArn];
      if (row.cipher || row.digestKey || row.fieldKey) expect(refId(arn)).toBe(cipherKeyId);
      else expect(arn).toBeUndefined();
    },
  );

  it.each(byFunction)('%s holds the digest key’s ciphertext exactly when its row needs digests', (_, row) => {
    const [digestKeyId] = Object.keys(resourcesOf(template, DATA_KEYS['digest-key'].resourceType));
    const ciphertext = functionOf(row).Environment.Variables[CONFIG_ENV.digestKeyCiphertext];
    if (row.digestKey) expect(ciphertext).toEqual({ Ref: digestKeyId });
    else expect(ciphertext).toBeUndefined();
  });

  it.each(byFunction)('%s holds the field key’s ciphertext exactly when its row seals or opens fields', (_, row) => {
    const [fieldKeyId] = Object.keys(resourcesOf(template, DATA_KEYS['field-key'].resourceType));
    const ciphertext = functionOf(row).Environment.Variables[CONFIG_ENV.fieldKeyCiphertext];
    if (row.fieldKey) expect(ciphertext).toEqual({ Ref: fieldKeyId });
    else expect(ciphertext).toBeUndefined();
  });

  it.each(byFunction)('%s may use no KMS key but the cipher key and the storage key', (_, row) => {
    const { cipher, storage } = kmsKeyIds(template);
    const kmsResources = statementsOf(row)
      .filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')))
      .map((s) => refId(s.Resource));
    expect(kmsResources.length).toBeGreaterThan(0);
    for (const resource of kmsResources) expect([cipher, storage]).toContain(resource);
  });

  it('grants a decrypting GET route kms:Decrypt on the cipher key for its purpose only, and nothing else of KMS but the table’s storage-key use', () => {
    const reader: RouteDefinition = {
      ...ROUTES[0]!,
      id: 'DecryptProbe',
      method: 'GET',
      path: '/probe',
      cipher: { decrypt: ['ssn'] },
      digestKey: false,
      fieldKey: false,
      table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
    };
    const probe = synthTemplate({ stackProps: { routes: [reader] } });
    const fn = functionByDescription(probe, routeKey(reader)).props;
    const kms = statementsOfRole(probe, refId(fn.Role)!).filter((s) =>
      actionsOf([s]).some((a) => a.startsWith('kms:')),
    );
    const keys = kmsKeyIds(probe);
    expect(kms.filter((s) => refId(s.Resource) === keys.cipher)).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [keys.cipher, 'Arn'] },
        Condition: { StringEquals: { 'kms:EncryptionContext:purpose': 'ssn' } },
      },
    ]);
    expect(kms.filter((s) => refId(s.Resource) !== keys.cipher)).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [keys.storage, 'Arn'] },
        Condition: { StringEquals: { 'kms:ViaService': viaService('dynamodb') } },
      },
    ]);
  });
});
