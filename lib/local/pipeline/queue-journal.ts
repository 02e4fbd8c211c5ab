import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RuntimeLog } from '../log';

/** A message as a queue holds it, and as the journal writes it down. */
export interface QueuedMessage {
  readonly messageId: string;
  readonly body: string;
  readonly md5OfBody: string;
  /** Epoch ms. */
  readonly sentAt: number;
  /** How often it was received (SQS's ApproximateReceiveCount). */
  readonly receiveCount: number;
  readonly firstReceivedAt?: number;
  /** Hidden (delayed, or received and not yet deleted) until then; epoch ms. */
  readonly visibleAt: number;
  /** Of the latest receive; deleting needs it. */
  readonly receiptHandle?: string;
  /** Set when the message was moved to this (dead-letter) queue. */
  readonly deadLetterQueueSourceArn?: string;
}

/**
 * The local queues on disk, when DATA_DIR keeps the database: SQS outlives a crashed
 * Lambda, so a queued message must outlive a crashed `npm start`. An append-only file of
 * changes, one JSON line per change, written and fdatasync'd before the queue acts on it
 * in memory: once `send` returns, the message survives a SIGKILL (and a power cut), so the
 * stream router's invocation, and with it the stream checkpoint, can only complete after
 * the messages it sent are on disk. A line holds every queue a step touches (a move to
 * the dead-letter queue is one line), so a crash never leaves half a step.
 *
 * Opening replays the file and rewrites it as one line of what is left (compaction, so
 * the file does not grow across runs). Synchronous on purpose: one append and fdatasync
 * costs about 0.2 ms here, and a synchronous write cannot interleave with another step.
 */
export interface QueueChange {
  readonly queue: string;
  /** Added, or replacing the message with the same id (a receive: count, visibility, handle). */
  readonly put?: readonly QueuedMessage[];
  /** Ids of messages gone (deleted, purged, moved to the dead-letter queue). */
  readonly remove?: readonly string[];
}

type QueueState = Map<string, Map<string, QueuedMessage>>;

export class QueueJournal {
  private constructor(
    readonly path: string,
    private fd: number | undefined,
    private readonly restoredState: QueueState,
  ) {}

  /** Reads and compacts the file (created when missing), then appends to it. */
  static open(path: string, log: RuntimeLog): QueueJournal {
    const state: QueueState = new Map();
    for (const changes of readChanges(path, log)) apply(state, changes);
    mkdirSync(dirname(path), { recursive: true });
    const snapshot = [...state].map(([queue, messages]) => ({ queue, put: [...messages.values()] }));
    const temporary = `${path}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, snapshot.length > 0 ? `${JSON.stringify(snapshot)}\n` : '');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    syncDirectory(dirname(path));
    return new QueueJournal(path, openSync(path, 'a'), state);
  }

  /** The messages a queue held when the journal was opened, in arrival order. */
  restored(queue: string): QueuedMessage[] {
    return [...(this.restoredState.get(queue)?.values() ?? [])];
  }

  /** Durable when it returns; throws (and the caller changes nothing) when it cannot be written. */
  record(changes: readonly QueueChange[]): void {
    if (this.fd === undefined) throw new Error(`queue journal ${this.path} is closed`);
    writeAll(this.fd, `${JSON.stringify(changes)}\n`);
    fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function readChanges(path: string, log: RuntimeLog): QueueChange[][] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  const changes: QueueChange[][] = [];
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    try {
      changes.push(JSON.parse(line) as QueueChange[]);
    } catch (error) {
      // Only a last line without its newline can be torn (a power cut mid-append): that
      // change never took effect, as its caller never returned. Anything else is damage.
      if (index !== lines.length - 1) throw new Error(`queue journal ${path} is damaged at line ${index + 1}`);
      log('warn', 'the queue journal ends in a half-written line, from a crash; it is dropped', { path, error });
    }
  }
  return changes;
}

function apply(state: QueueState, changes: readonly QueueChange[]): void {
  for (const { queue, put = [], remove = [] } of changes) {
    let messages = state.get(queue);
    if (!messages) {
      messages = new Map();
      state.set(queue, messages);
    }
    for (const id of remove) messages.delete(id);
    // A Map keeps a replaced key where it was: a received message keeps its place in line.
    for (const message of put) messages.set(message.messageId, message);
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

/** Makes the rename itself durable. */
function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
