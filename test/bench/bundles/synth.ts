import { cp, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { CONSUMERS, deployedRoutes, ROUTES, routeKey } from '#lib/service/index';
import { buildApp } from '#test/infra/harness';
import { FLOOR_ROUTE, KEPT_FLOORS } from '../floor/route';

export { FLOOR_ROUTE, KEPT_FLOORS };

/**
 * Every function of the stack bundled exactly as `cdk synth` bundles it: the real app,
 * synthesized with asset bundling on (ServiceFunction's esbuild options, local esbuild),
 * with the floor as one more route so it gets the very same options. Nothing here repeats
 * an esbuild option, so the bench cannot measure a bundle the stack would not ship.
 */

export interface SynthesizedFunction {
  /** The route or consumer id. */
  readonly name: string;
  /** `kept-floor`: the floor with the packages kept by decision (test/bench/floor/kept.ts). */
  readonly kind: 'route' | 'consumer' | 'floor' | 'kept-floor';
  /** The staged asset, copied under the work directory: `index.mjs`, its map, any bundling files. */
  readonly dir: string;
  readonly bundle: string;
  /** Size of `index.mjs` alone: the source map beside it is read only with --enable-source-maps. */
  readonly bundleBytes: number;
  /** The function's environment as the template sets it; references to other resources left as they are. */
  readonly environment: Readonly<Record<string, unknown>>;
  /** MB, as the template sets it: the Lambda runtime sizes the V8 heap from it. */
  readonly memorySize: number;
}

interface LambdaResource {
  readonly Type: string;
  readonly Properties: {
    readonly Description?: string;
    readonly Code: { readonly S3Key: string };
    readonly MemorySize: number;
    readonly Environment?: { readonly Variables?: Record<string, unknown> };
  };
}

export async function synthesizeFunctions(workDir: string): Promise<SynthesizedFunction[]> {
  // The infra tests' reason too: aws-cdk-lib's WASM template validation adds seconds and checks nothing we read.
  process.env.CDK_VALIDATION = 'false';
  const { app, stack } = buildApp({
    bundle: true,
    stackProps: { routes: [...ROUTES, FLOOR_ROUTE, ...KEPT_FLOORS.map((kept) => kept.route)] },
  });
  const assembly = app.synth();
  const resources = assembly.getStackArtifact(stack.artifactId).template.Resources as Record<string, LambdaResource>;

  const byDescription = new Map<string, Pick<SynthesizedFunction, 'name' | 'kind'>>([
    [routeKey(FLOOR_ROUTE), { name: FLOOR_ROUTE.id, kind: 'floor' }],
    ...KEPT_FLOORS.map(({ route }) => [routeKey(route), { name: route.id, kind: 'kept-floor' }] as const),
    ...deployedRoutes(ROUTES).map((route) => [routeKey(route), { name: route.id, kind: 'route' }] as const),
    ...CONSUMERS.map((consumer) => [consumerDescription(consumer), { name: consumer.id, kind: 'consumer' }] as const),
  ]);

  const functions: SynthesizedFunction[] = [];
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    // Others (the tenant-alias custom resources' provider) are aws-cdk-lib's prebuilt code, not ours.
    const known = byDescription.get(resource.Properties.Description ?? '');
    if (!known) continue;
    const asset = join(assembly.directory, `asset.${resource.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
    const dir = join(workDir, 'functions', known.name);
    // The assembly is a temporary directory removed at exit; the copy stays for reading (and metafiles).
    await cp(asset, dir, { recursive: true });
    const bundle = join(dir, 'index.mjs');
    functions.push({
      ...known,
      dir,
      bundle,
      bundleBytes: (await stat(bundle)).size,
      environment: resource.Properties.Environment?.Variables ?? {},
      memorySize: resource.Properties.MemorySize,
    });
  }
  const missing = [...byDescription.values()].filter((fn) => !functions.some((f) => f.name === fn.name));
  if (missing.length > 0) throw new Error(`no function synthesized for ${missing.map((fn) => fn.name).join(', ')}`);
  await writeFile(join(workDir, MANIFEST), JSON.stringify(functions, null, 2));
  return functions;
}

const MANIFEST = 'functions.json';

/** The functions of the latest synthesis in `workDir` (`--reuse`, while developing the bench itself). */
export async function synthesizedBefore(workDir: string): Promise<SynthesizedFunction[]> {
  return JSON.parse(await readFile(join(workDir, MANIFEST), 'utf8')) as SynthesizedFunction[];
}
