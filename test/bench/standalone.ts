import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { REPO_ROOT } from '../../lib/local/repo-root';
import type { BenchContext } from './context';

/** Whether the module of `moduleUrl` is the script node was started with (`npx tsx test/bench/<part>.ts`). */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(resolve(process.argv[1])).href;

/**
 * Runs one benchmark part on its own, as `npm run bench` would run it (its own DynamoDB
 * Local, `.bench/work/<name>`, progress on stderr), and prints its table on stdout.
 */
export async function runStandalone<T>(
  name: string,
  part: (context: BenchContext) => Promise<T>,
  format: (result: T) => string,
): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const started = performance.now();
  const log = (message: string) => process.stderr.write(`[${name} ${elapsed(started)}] ${message}\n`);
  const workDir = join(REPO_ROOT, '.bench', 'work', name);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const dynamo = await startDynamoDbLocal();
  try {
    const result = await part({ dynamoEndpoint: dynamo.endpoint, workDir, log });
    process.stdout.write(`${format(result)}\n`);
    log('done');
  } finally {
    await dynamo.stop();
  }
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** A plain-text table: the first row is the header; numbers align right. */
export function textTable(rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0))) ?? [];
  const line = (row: string[], index: number) =>
    row
      .map((cell, column) =>
        index > 0 && typeof rows[index]?.[column] === 'number'
          ? cell.padStart(widths[column] ?? 0)
          : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return cells.map(line).join('\n');
}
