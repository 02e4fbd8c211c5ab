import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, posix, sep } from 'node:path';
import { type BundlingOptions, type ICommandHooks, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { DATA_KEYS, type DataKeyPurpose } from '#shared/data-key/index';

// How every function of the service is bundled (esbuild, minified ESM for Node 24, the AWS
// SDK inside): what its cold start loads is decided here, once for all of them.

/**
 * ESM bundles have no `require`; a few CommonJS dependencies inside the bundled AWS SDK
 * still call it, so the bundle defines one from `import.meta.url`.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __cdkCreateRequire } from 'node:module'; const require = __cdkCreateRequire(import.meta.url);";

/** The SDK's default credential chain, and the module every bundle takes instead (environment credentials). */
export const CREDENTIAL_CHAIN_PACKAGE = '@aws-sdk/credential-provider-node';
export const LAMBDA_CREDENTIALS_MODULE = 'functions/shared/lambda-credentials.ts';

export interface FunctionBundlingProps {
  /** Files copied into the bundle under the same path (relative to the project root). */
  readonly files: readonly string[];
  /** The data keys the function holds: without one, its bundle leaves the key's KMS client out. */
  readonly heldDataKeys: ReadonlySet<DataKeyPurpose>;
  /** Further `define` constants for esbuild, by name. */
  readonly bundleConstants: Readonly<Record<string, unknown>>;
}

/** The esbuild options of one function. */
export function functionBundling(projectRoot: string, props: FunctionBundlingProps): BundlingOptions {
  const commandHooks = copyFilesHooks(projectRoot, props.files);
  return {
    format: OutputFormat.ESM,
    target: 'node24',
    mainFields: ['module', 'main'],
    banner: ESM_REQUIRE_BANNER,
    minify: true,
    sourceMap: true,
    // The map only has to turn stack traces back into file:line (NODE_OPTIONS=--enable-source-maps);
    // without the sources' text it is a third of the size, and every cold start reads
    // and parses it before the handler's first line runs.
    sourcesContent: false,
    bundleAwsSDK: true,
    externalModules: [],
    // Credentials from the environment only, as Lambda gives them (functions/shared/lambda-credentials.ts).
    esbuildArgs: { [`--alias:${CREDENTIAL_CHAIN_PACKAGE}`]: `./${LAMBDA_CREDENTIALS_MODULE}` },
    // functions/shared/data-key/: without a data key, no KMS client to load it.
    define: Object.fromEntries(
      [
        ...Object.values(DATA_KEYS).map((spec) => [spec.bundleConstant, props.heldDataKeys.has(spec.purpose)] as const),
        ...Object.entries(props.bundleConstants),
      ].map(([name, value]) => [name, JSON.stringify(value)]),
    ),
    ...(commandHooks && { commandHooks }),
  };
}

/**
 * Bundling hooks that copy each file (relative to the project root) into the bundle
 * under the same relative path, with plain `mkdir -p` and `cp` (local bundling runs them
 * with bash in the project root; Docker bundling in its input directory). Every path is
 * checked here, at synth, rather than failing inside a shell later.
 */
function copyFilesHooks(projectRoot: string, files: readonly string[]): ICommandHooks | undefined {
  if (files.length === 0) return undefined;
  const relative = [...new Set(files.map((file) => checkedFile(projectRoot, file)))];
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      relative.map((file) => {
        const target = posix.join(outputDir, file);
        return `mkdir -p ${shellQuote(posix.dirname(target))} && cp ${shellQuote(posix.join(inputDir, file))} ${shellQuote(target)}`;
      }),
  };
}

/** A file inside the project root, as a POSIX path relative to it; throws otherwise. */
function checkedFile(projectRoot: string, file: string): string {
  const relative = normalize(file);
  if (isAbsolute(file) || relative === '..' || relative.startsWith(`..${sep}`)) {
    throw new Error(`bundling file "${file}" must be a path inside the repository, relative to its root`);
  }
  const absolute = join(projectRoot, relative);
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    throw new Error(`bundling file "${file}" is not a file under ${projectRoot}`);
  }
  return relative.split(sep).join(posix.sep);
}

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
