import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { REPO_ROOT } from '#lib/repo-root';
import type { BenchContext, BenchPart } from './context';
import { useBenchListShards } from './list-shards';

/** Whether the module of `moduleUrl` is the script node was started with (`npx tsx test/bench/<part>.ts`). */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(resolve(process.argv[1])).href;

/**
 * Runs one benchmark part on its own, as `npm run bench` would run it: its own DynamoDB
 * Local, a fresh `.bench/work/<name>`, progress on stderr; on stdout its table when a
 * `format` is given, else its figures as JSON.
 */
export async function runStandalone<T>(
  name: string,
  part: BenchPart<T>,
  format: (result: T) => string = (result) => JSON.stringify(result, null, 2),
): Promise<T> {
  useBenchListShards();
  const started = performance.now();
  const log = (message: string) => process.stderr.write(`[${name} ${elapsed(started)}] ${message}\n`);
  const workDir = join(REPO_ROOT, '.bench', 'work', name);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const dynamo = await startDynamoDbLocal();
  try {
    const result = await part({
      dynamoEndpoint: dynamo.endpoint,
      dynamoPid: dynamo.pid,
      workDir,
      log,
    } satisfies BenchContext);
    process.stdout.write(`${format(result)}\n`);
    log('done');
    return result;
  } finally {
    await dynamo.stop();
  }
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
