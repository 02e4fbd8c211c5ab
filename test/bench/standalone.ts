import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { REPO_ROOT } from '../../lib/local/repo-root';
import type { BenchContext, BenchPart } from './context';

/** True when the module at `moduleUrl` is the script node was asked to run (`npx tsx test/bench/<part>.ts`). */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;

/**
 * Runs one benchmark part on its own, as `npm run bench` would run it: its own DynamoDB
 * Local, a fresh `.bench/work/<part>`, progress on stderr; the figures as JSON on stdout.
 */
export async function runStandalone<T>(part: string, measure: BenchPart<T>): Promise<T> {
  // The SDK's notice that it wants Node 22 from 2027 is known (as in test/vitest.config.ts).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const workDir = join(REPO_ROOT, '.bench', 'work', part);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const dynamo = await startDynamoDbLocal({ log: (_level, message) => log(message) });
  const context: BenchContext = { dynamoEndpoint: dynamo.endpoint, workDir, log };
  const started = performance.now();
  try {
    const figures = await measure(context);
    log(`${part}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  } finally {
    await dynamo.stop();
  }
}
