import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { dataKeyGeneratorDescription } from '#lib/constructs/data-key';
import { TENANT_ALIAS_RESOURCE_TYPE } from '#lib/constructs/tenant-records';
import { REPO_ROOT as ROOT } from '#lib/repo-root';
import {
  CONSUMERS,
  dataKeysOf,
  deployedRoutes,
  ROUTES,
  type RouteDefinition,
  routeKey,
  takesIdempotencyKey,
} from '#lib/service/index';
import { buildApp } from './harness';

interface LambdaResource {
  Type: string;
  Properties: { Description: string; Code: { S3Key: string }; ServiceToken?: { 'Fn::GetAtt': [string, string] } };
}

const REPO_ROOT = pathToFileURL(`${ROOT}/`);
const FIXTURE_FILE = 'test/infra/fixtures/bundled-data/screening-list.json';

/**
 * A route whose function reads data files at run time: one nested (its directories are
 * created in the bundle) and one at the repository root.
 */
const WITH_FILES: RouteDefinition = {
  id: 'BundlingFilesProbe',
  method: 'GET',
  path: '/bundling-probe',
  scopes: ['read:verify-accounts'],
  handler: 'functions/verify-accounts/handlers/get.ts',
  table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
  bundling: { files: [FIXTURE_FILE, 'package.json'] },
};

/**
 * Bundling gives up after this much per function it bundles (docs/testing.md#on-a-busy-machine):
 * 0.5 s a function measured here idle, the whole stack outran a flat 120 s in a full
 * `npm test` with both cores kept busy (about 3.5 s a function).
 */
const MS_PER_BUNDLED_FUNCTION = 8_000;
/** Every function of the stack: the routes deployed here, the consumers and the two data-key generators. */
const BUNDLING_BUDGET_MS =
  (deployedRoutes([...ROUTES, WITH_FILES]).length + CONSUMERS.length + 2) * MS_PER_BUNDLED_FUNCTION;

/** The one test file that bundles for real, with the local esbuild (no Docker), as `cdk synth` does. */
describe('asset bundling', () => {
  let directory: string;
  /** The functions of the route table and the consumer list. */
  let functions: LambdaResource[];
  /** The data keys' generators: they run at deploy time only; ours, but no row's. */
  let generators: LambdaResource[];
  /** The staged asset directory of a function (its S3 key is the content hash that names it). */
  const assetOf = (fn: LambdaResource) => join(directory, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
  /** The input files of a function's bundle, as its shipped source map names them. */
  const sourcesOf = (fn: LambdaResource): string[] =>
    (JSON.parse(readFileSync(join(assetOf(fn), 'index.mjs.map'), 'utf8')) as { sources: string[] }).sources;
  /** The function of a route. */
  const functionOf = (route: RouteDefinition): LambdaResource => {
    const fn = functions.find((f) => f.Properties.Description === routeKey(route));
    if (!fn) throw new Error(`no function for ${routeKey(route)}`);
    return fn;
  };

  beforeAll(() => {
    const { app, stack } = buildApp({ bundle: true, stackProps: { routes: [...ROUTES, WITH_FILES] } });
    const assembly = app.synth();
    directory = assembly.directory;
    const resources = assembly.getStackArtifact(stack.artifactId).template.Resources as Record<string, LambdaResource>;
    // The tenant-alias custom resources' provider is aws-cdk-lib's prebuilt handler, not ours.
    const providerIds = new Set(
      Object.values(resources)
        .filter((r) => r.Type === TENANT_ALIAS_RESOURCE_TYPE)
        .map((r) => r.Properties.ServiceToken?.['Fn::GetAtt'][0]),
    );
    expect(providerIds.size).toBe(1);
    const ours = Object.entries(resources)
      .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !providerIds.has(id))
      .map(([, r]) => r);
    const generatorDescriptions = [dataKeyGeneratorDescription('digest-key'), dataKeyGeneratorDescription('field-key')];
    functions = ours.filter((fn) => !generatorDescriptions.includes(fn.Properties.Description));
    generators = ours.filter((fn) => generatorDescriptions.includes(fn.Properties.Description));
    expect(generators).toHaveLength(generatorDescriptions.length);
  }, BUNDLING_BUDGET_MS);

  it('bundles every route and consumer handler into a minified ESM file with a positions-only source map and the AWS SDK inside', () => {
    expect(functions.map((f) => f.Properties.Description).sort()).toEqual(
      [...deployedRoutes([...ROUTES, WITH_FILES]).map(routeKey), ...CONSUMERS.map(consumerDescription)].sort(),
    );

    for (const fn of functions) {
      const bundle = join(assetOf(fn), 'index.mjs');
      expect(existsSync(bundle), `${fn.Properties.Description}: ${bundle}`).toBe(true);
      expect(existsSync(`${bundle}.map`)).toBe(true);
      // Positions only: the map is read at every cold start (--enable-source-maps); the sources' text would triple it.
      expect(JSON.parse(readFileSync(`${bundle}.map`, 'utf8'))).not.toHaveProperty('sourcesContent');
      const code = readFileSync(bundle, 'utf8');
      expect(code).toContain('createRequire');
      // Bundled, not left to the runtime's copy: no bare import of an SDK package remains.
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      expect(statSync(bundle).size).toBeLessThan(2 * 1024 * 1024);
    }
  });

  it('bundles an AWS client only into the functions whose row declares its use (cipher or a data key: KMS, sendsTo: SQS, sendsEmail: SES)', () => {
    const rows = [...deployedRoutes([...ROUTES, WITH_FILES]), ...CONSUMERS].map((row) => ({
      description: 'method' in row ? routeKey(row) : consumerDescription(row),
      declares: {
        '@aws-sdk/client-kms': row.cipher !== undefined || dataKeysOf(row).length > 0,
        '@aws-sdk/client-sqs': (row.sendsTo ?? []).length > 0,
        '@aws-sdk/client-sesv2': 'sendsEmail' in row && row.sendsEmail === true,
      },
    }));
    for (const fn of functions) {
      const row = rows.find((candidate) => candidate.description === fn.Properties.Description);
      if (!row) throw new Error(`no row for ${fn.Properties.Description}`);
      const { sources } = JSON.parse(readFileSync(join(assetOf(fn), 'index.mjs.map'), 'utf8')) as { sources: string[] };
      // A client dragged in by an import the function does not need costs every cold start its size.
      for (const [client, declared] of Object.entries(row.declares)) {
        expect(
          sources.some((source) => source.includes(`node_modules/${client}/`)),
          `${row.description}: ${client}`,
        ).toBe(declared);
      }
    }
  });

  it('bundles a data key’s class only into the functions whose row holds the key: the digest key’s (digest-key.ts), the field cipher (FieldCipher)', () => {
    for (const row of [...deployedRoutes([...ROUTES, WITH_FILES]), ...CONSUMERS]) {
      const description = 'method' in row ? routeKey(row) : consumerDescription(row);
      const fn = functions.find((f) => f.Properties.Description === description);
      if (!fn) throw new Error(`no function for ${description}`);
      const held = dataKeysOf(row);
      expect(
        sourcesOf(fn).some((source) => source.endsWith('functions/shared/digest/digest-key.ts')),
        `${description}: the digest key`,
      ).toBe(held.includes('digest-key'));
      // field-cipher.ts itself stays wherever fields are sealed (its `holdsSealedValue`); FieldCipher.open's message does not.
      expect(
        readFileSync(join(assetOf(fn), 'index.mjs'), 'utf8').includes('is not a sealed value'),
        `${description}: the field cipher`,
      ).toBe(held.includes('field-key'));
    }
  });

  it('GET routes bundle no idempotency store: only a route whose method takes an Idempotency-Key carries the middleware and its records', () => {
    const stackFiles = ['functions/shared/http/idempotency.ts', 'functions/shared/db/idempotency/repository.ts'];
    const routes = deployedRoutes([...ROUTES, WITH_FILES]);
    expect(routes.some((route) => route.method === 'GET')).toBe(true);
    for (const route of routes) {
      const sources = sourcesOf(functionOf(route));
      for (const file of stackFiles) {
        expect(
          sources.some((source) => source.endsWith(file)),
          `${routeKey(route)}: ${file}`,
        ).toBe(takesIdempotencyKey(route));
      }
    }
  });

  it('bundles list paging only into the routes whose row pages a list (`listPositions`): a list is served apart from its repository (functions/shared/db/<area>/list.ts)', () => {
    const routes = deployedRoutes([...ROUTES, WITH_FILES]);
    expect(routes.some((route) => route.listPositions)).toBe(true);
    for (const route of routes) {
      expect(
        sourcesOf(functionOf(route)).some((source) =>
          source.endsWith('functions/shared/db/list-positions/repository.ts'),
        ),
        routeKey(route),
      ).toBe(route.listPositions === true);
    }
    for (const consumer of CONSUMERS) {
      const fn = functions.find((f) => f.Properties.Description === consumerDescription(consumer));
      expect(
        fn && sourcesOf(fn).some((source) => source.endsWith('functions/shared/db/list-positions/repository.ts')),
        consumer.id,
      ).toBe(false);
    }
  });

  it('bundles a list query only into the list routes: an area’s list query is apart from its bodies (functions/<area>/query-schemas.ts), so a write bundles no list filters', () => {
    for (const route of deployedRoutes([...ROUTES, WITH_FILES])) {
      expect(
        sourcesOf(functionOf(route)).some((source) => source.endsWith('functions/shared/list-query.ts')),
        routeKey(route),
      ).toBe(route.listPositions === true);
    }
  });

  it('a single-item GET or DELETE bundles none of its area’s body and list schemas: its path id is all it validates (functions/<area>/path-params.ts)', () => {
    const singleItem = deployedRoutes(ROUTES).filter(
      (route) => ['GET', 'DELETE'].includes(route.method) && route.path.endsWith('}'),
    );
    expect(singleItem.length).toBeGreaterThan(0);
    for (const route of singleItem) {
      const schemaModules = sourcesOf(functionOf(route)).filter((source) =>
        /functions\/[a-z-]+\/(request|query)-schemas\.ts$/.test(source),
      );
      expect(schemaModules, routeKey(route)).toEqual([]);
    }
    // The rule can fail: a route with a body does bundle its area's request schemas.
    const withBody = deployedRoutes(ROUTES).find((route) => route.method === 'POST' && route.path === '/persons');
    expect(
      withBody && sourcesOf(functionOf(withBody)).some((s) => s.endsWith('functions/persons/request-schemas.ts')),
    ).toBe(true);
  });

  it('a GET bundles, of its area’s use cases, only its reads (functions/<area>/read-<entity>.ts): no write, nor what a write checks', () => {
    // The files every route of an area may share (docs/architecture.md#where-a-file-goes); the rest are use cases.
    const shared =
      /\/(request-schemas|query-schemas|path-params|present|openapi-responses|event-kinds|stream-rules|[a-z-]+-message)\.ts$/;
    const gets = deployedRoutes(ROUTES).filter((route) => route.method === 'GET');
    expect(gets.length).toBeGreaterThan(5);
    for (const route of gets) {
      const area = route.handler.split('/')[1];
      const useCases = sourcesOf(functionOf(route)).filter(
        (source) => source.includes(`functions/${area}/`) && !source.includes('/handlers/') && !shared.test(source),
      );
      expect(useCases.length, routeKey(route)).toBeGreaterThan(0);
      expect(
        useCases.filter((source) => !/\/read-[a-z-]+\.ts$/.test(source)),
        routeKey(route),
      ).toEqual([]);
    }
    // What saving a configuration checks (its URL's safety, its subscriptions against the
    // event catalogue) is the writes' alone: the list of configurations bundles none of it.
    const savingChecks = [
      'functions/shared/webhook-url/',
      'functions/webhooks/subscriptions.ts',
      'functions/event-catalogue/',
    ];
    const checksIn = (id: string) => {
      const route = ROUTES.find((candidate) => candidate.id === id);
      if (!route) throw new Error(`no route ${id}`);
      const sources = sourcesOf(functionOf(route));
      return savingChecks.filter((check) => sources.some((source) => source.includes(check)));
    };
    expect(checksIn('ListWebhookConfigurations')).toEqual([]);
    expect(checksIn('CreateWebhookConfiguration')).toEqual(savingChecks);
  });

  it('bundles no openapi-responses.ts into any function: a handler answers through its area’s present.ts, and the response schemas are for the OpenAPI document and the tests', () => {
    for (const fn of [...functions, ...generators]) {
      const contract = sourcesOf(fn).filter((source) => source.endsWith('openapi-responses.ts'));
      expect(contract, fn.Properties.Description).toEqual([]);
    }
  });

  it('bundles no identity vendor adapter into any function of the default synth: no Plaid client, JWT library or vendor SDK (IDENTITY_VENDOR_IN_BUNDLE is false)', () => {
    for (const fn of functions) {
      const vendorSources = sourcesOf(fn).filter((source) =>
        /identity-vendor\/(plaid\/|open-vendor)|node_modules\/(jose|plaid|axios)\//.test(source),
      );
      expect(vendorSources, fn.Properties.Description).toEqual([]);
    }
  });

  it('bundles no SES client into the verification worker: statement-code emails go from their own consumer, fed by the statement-code-emails queue', () => {
    const sources = (row: { id: string }) => {
      const fn = functions.find((f) => f.Properties.Description === consumerDescription(row as never));
      if (!fn) throw new Error(`no function for ${row.id}`);
      return (JSON.parse(readFileSync(join(assetOf(fn), 'index.mjs.map'), 'utf8')) as { sources: string[] }).sources;
    };
    const reachesSes = (row: { id: string }) =>
      sources(row).some((s) => s.includes('node_modules/@aws-sdk/client-sesv2/'));
    const worker = CONSUMERS.find((c) => c.id === 'VerificationWorker');
    const emailers = CONSUMERS.filter((c) => c.sendsEmail);
    expect(worker && reachesSes(worker)).toBe(false);
    expect(emailers.map((c) => [c.id, c.source])).toEqual([
      ['StatementCodeEmailWorker', expect.objectContaining({ kind: 'queue', queue: 'statementCodeEmails' })],
    ]);
    expect(emailers.every(reachesSes)).toBe(true);
  });

  it('bundles no credential provider but the environment’s: Lambda gives the role’s credentials in the environment, so the default chain (SSO, INI, process, web identity, metadata, STS) is dead weight', () => {
    for (const fn of [...functions, ...generators]) {
      const { sources } = JSON.parse(readFileSync(join(assetOf(fn), 'index.mjs.map'), 'utf8')) as { sources: string[] };
      const providers = new Set(
        sources.flatMap(
          (s) =>
            /node_modules\/(@aws-sdk\/(?:credential-provider-[a-z-]+|nested-clients|token-providers))\//.exec(s)?.[1] ??
            [],
        ),
      );
      expect([...providers], fn.Properties.Description).toEqual(['@aws-sdk/credential-provider-env']);
    }
  });

  it('bundles each data key’s generator with the KMS client and no other AWS client', () => {
    for (const generator of generators) {
      const { sources } = JSON.parse(readFileSync(join(assetOf(generator), 'index.mjs.map'), 'utf8')) as {
        sources: string[];
      };
      const clients = new Set(
        sources.flatMap((s) => /node_modules\/(@aws-sdk\/client-[a-z0-9-]+)\//.exec(s)?.[1] ?? []),
      );
      expect([...clients]).toEqual(['@aws-sdk/client-kms']);
    }
  });

  it("copies a row's bundling.files into its bundle under the same relative paths, and into no other bundle", () => {
    const [withFiles, ...others] = [
      ...functions.filter((f) => f.Properties.Description === routeKey(WITH_FILES)),
      ...functions.filter((f) => f.Properties.Description !== routeKey(WITH_FILES)),
    ];
    if (!withFiles) throw new Error(`no function for ${routeKey(WITH_FILES)}`);
    for (const file of [FIXTURE_FILE, 'package.json']) {
      const copied = join(assetOf(withFiles), file);
      expect(existsSync(copied), copied).toBe(true);
      expect(readFileSync(copied, 'utf8')).toBe(readFileSync(new URL(file, REPO_ROOT), 'utf8'));
    }
    expect(others.length).toBeGreaterThan(0);
    for (const fn of others) {
      expect(existsSync(join(assetOf(fn), 'package.json')), fn.Properties.Description).toBe(false);
      expect(existsSync(join(assetOf(fn), 'test')), fn.Properties.Description).toBe(false);
    }
  });
});

describe('bundling.files are checked at synth', () => {
  const withFiles = (files: string[]): RouteDefinition => ({ ...WITH_FILES, bundling: { files } });

  it('refuses a file that does not exist, so a typo fails synth rather than the function at run time', () => {
    expect(() => buildApp({ stackProps: { routes: [withFiles(['test/infra/fixtures/missing.json'])] } })).toThrow(
      /missing\.json" is not a file/,
    );
  });

  it('refuses a path outside the repository, absolute or climbing out', () => {
    expect(() => buildApp({ stackProps: { routes: [withFiles(['../outside.json'])] } })).toThrow(
      /inside the repository/,
    );
    expect(() => buildApp({ stackProps: { routes: [withFiles(['/etc/hostname'])] } })).toThrow(/inside the repository/);
  });
});
