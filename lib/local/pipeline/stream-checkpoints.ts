import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RuntimeLog } from '../log';

// Where a stream consumer got to in each shard: the sequence number of the last record it
// is done with (delivered, filtered out, or handed to the on-failure destination). Like an
// event source mapping's checkpoint, it lets a restart with a persistent DATA_DIR (whose
// stream DynamoDB Local keeps) continue instead of replaying the last 24 hours. Without a
// file the checkpoints live in memory only, which is right for an in-memory database:
// every run starts with a fresh table and reads its stream from the beginning.

interface CheckpointFile {
  readonly streamArn: string;
  readonly shards: Record<string, string>;
}

export class StreamCheckpoints {
  private shards: Record<string, string> = {};
  private streamArn = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string | undefined,
    private readonly log: RuntimeLog,
  ) {}

  /** Reads the file; checkpoints of another stream (the table was recreated) are ignored. */
  async load(streamArn: string): Promise<void> {
    this.streamArn = streamArn;
    this.shards = {};
    if (!this.path) return;
    try {
      const saved = JSON.parse(await readFile(this.path, 'utf8')) as CheckpointFile;
      if (saved.streamArn === streamArn) this.shards = { ...saved.shards };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log('warn', 'stream checkpoints unreadable; reading the stream from its oldest record', {
          path: this.path,
          error,
        });
      }
    }
  }

  get(shardId: string): string | undefined {
    return this.shards[shardId];
  }

  set(shardId: string, sequenceNumber: string): void {
    this.shards[shardId] = sequenceNumber;
    if (!this.path) return;
    const path = this.path;
    const content = JSON.stringify({ streamArn: this.streamArn, shards: this.shards } satisfies CheckpointFile);
    // Writes are chained so an older checkpoint never lands after a newer one.
    this.writing = this.writing
      .then(() => writeAtomically(path, content))
      .catch((error: unknown) => {
        this.log('warn', 'could not save a stream checkpoint', { path, error });
      });
  }

  /** Waits for pending writes (on stop). */
  flush(): Promise<void> {
    return this.writing;
  }
}

async function writeAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, path);
}
