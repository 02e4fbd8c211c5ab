import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('./serve.mjs', import.meta.url));

export interface ServeReport {
  readonly invocations: number;
  /** How the invocations ended: HTTP status, `ok`, `batch item failures` or `threw`. */
  readonly outcomes: Readonly<Record<string, number>>;
  /** The first few errors thrown, for reading. */
  readonly errors: readonly string[];
  readonly ms: number;
  /** The bundle's import: module initialisation, as a cold start's. */
  readonly importMs: number;
  /** The first invocation, from the event handed over to the handler's answer. */
  readonly firstMs: number;
  /**
   * The requests the first invocation sent: DynamoDB and SQS by operation (`GetItem`,
   * `SendMessage`), others by the service whose endpoint they went to (`STS`) or the host.
   */
  readonly firstCalls: Readonly<Record<string, number>>;
  /** CPU time of the whole process (import included), for reading against `ms`. */
  readonly cpuMs: number;
  readonly maxRssKb: number;
}

/**
 * One function's execution environment: a fresh `node` that imports the bundle and serves
 * `events` one after another (serve.mjs). The events go through a file, read line by line,
 * so they are not held in the measured process's memory. The function's log lines (stdout)
 * are dropped, as they would leave for CloudWatch; stderr is kept for a failure message.
 */
export async function serveInvocations(options: {
  readonly name: string;
  readonly bundle: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** `node` flags before the script (the Lambda runtime's heap flags). */
  readonly nodeFlags: readonly string[];
  readonly events: readonly unknown[];
  readonly timeoutMs: number;
  readonly workDir: string;
}): Promise<ServeReport> {
  const dir = join(options.workDir, 'events');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${options.name}.ndjson`);
  await writeLines(file, options.events);

  const child = spawn(
    process.execPath,
    [...options.nodeFlags, SERVE, options.bundle, file, options.name, String(options.timeoutMs)],
    {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  let report = '';
  let stderr = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    report += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-3000);
  });
  const code = await new Promise<number | null>((exited, failed) => {
    child.once('error', failed);
    child.once('close', exited);
  });
  if (code !== 0 || report === '') {
    throw new Error(`${options.name}: serving its invocations exited with ${code}\n${stderr}`);
  }
  return JSON.parse(report) as ServeReport;
}

async function writeLines(file: string, events: readonly unknown[]): Promise<void> {
  const out = createWriteStream(file);
  for (const event of events) {
    if (!out.write(`${JSON.stringify(event)}\n`))
      await new Promise<void>((drained) => out.once('drain', () => drained()));
  }
  await new Promise<void>((closed, failed) => out.end((error?: Error | null) => (error ? failed(error) : closed())));
}
