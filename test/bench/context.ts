/**
 * What every part of `npm run bench` (test/bench/run.ts) gets, in a process of its own
 * (test/bench/part.ts): a DynamoDB Local of its own, a work directory for bundles and
 * scratch files, and a line logger. A part is a
 * module exporting one `measure…(context)` that returns its slice of the results.
 */
export interface BenchContext {
  /** The part's own DynamoDB Local, started for it; the part creates its tables. */
  readonly dynamoEndpoint: string;
  /** Its JVM's process id, where the part reads the JVM's CPU time (/proc); absent when unknown. */
  readonly dynamoPid?: number;
  /** `.bench/work/<part>`: created, emptied at the start of the run; git-ignored. */
  readonly workDir: string;
  /** Progress for the terminal (stderr), one line at a time. */
  log(message: string): void;
}

export type BenchPart<T> = (context: BenchContext) => Promise<T>;
