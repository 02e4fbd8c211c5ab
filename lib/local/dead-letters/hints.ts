import type { QueueId } from '#shared/queue/message-queue';
import { CONSOLE_PATH } from '../console/console-endpoints';
import type { DeadLetterSummary } from '../pipeline/local-queues';

// What a person is told about the local dead letters, wherever it is told: the lines
// `npm start` prints at start and when a message is moved, `npm run dead-letters`, and the
// console (through GET /local/dead-letters). One wording, so they never disagree
// (docs/local.md#dead-letters). Ids, counts and ages only: never a message body.

/**
 * The exact ways to redrive a queue of the runtime at `url`: the command, naming the URL so
 * that it works from any terminal whatever its PORT, and the console.
 */
export const redriveHint = (queue: QueueId, url: string): string =>
  `once the cause is fixed, redrive with \`npm run dead-letters -- --redrive ${queue} --url ${url}\` ` +
  `or Redrive in ${url}${CONSOLE_PATH} (Dead letters)`;

/** The exact ways to replay a stream batch given up of the runtime at `url`: the command, and the console. */
export const replayHint = (startSequenceNumber: string, url: string): string =>
  `once the cause is fixed, replay with \`npm run dead-letters -- --replay ${startSequenceNumber} --url ${url}\` ` +
  `or Replay in ${url}${CONSOLE_PATH} (Dead letters)`;

/** One queue's dead letters in a line: how many, and the oldest by id and age. */
export function parkedLine({ queue, name, count, oldest }: DeadLetterSummary): string {
  const first = oldest
    ? `, the oldest ${oldest.messageId} sent ${oldest.sentAt} (${roughly(oldest.ageSeconds)} ago, received ${oldest.receiveCount} times)`
    : '';
  return `${queue}: ${count} message(s) in ${name}${first}`;
}

/**
 * What `npm start` says at start about the dead letters an earlier run left (DATA_DIR):
 * a line per queue holding any. They would otherwise wait unseen, as no alarm watches them.
 */
export const startupNotices = (summaries: readonly DeadLetterSummary[], url: string): string[] =>
  summaries
    .filter((summary) => summary.count > 0)
    .map(
      (summary) => `dead letters kept from an earlier run: ${parkedLine(summary)}; ${redriveHint(summary.queue, url)}`,
    );

/**
 * What to do about a stream batch a consumer gave up on: what docs/operations.md tells an
 * operator in AWS, where `npm run stream:replay` replays the batch the on-failure message
 * names by the same shard and range.
 */
export const STREAM_FAILURE_ADVICE =
  'Find the cause in npm start’s output (the consumer’s failures, then its ERROR line for the batch) and fix it; ' +
  'then Replay the batch: its records are read again from the stream by its shard and sequence range and handed to ' +
  'its consumer as before, as `npm run stream:replay` does in AWS (docs/operations.md). A batch replayed in full ' +
  'leaves the list; the stream keeps records 24 h. The list is kept in memory: a restart forgets it.';

/** An age as a person reads it: whole units of the largest that fits. */
function roughly(seconds: number): string {
  const units = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
  ] as const;
  const [unit, size] = units.find(([, size]) => seconds >= size) ?? ['s', 1];
  return `${Math.floor(seconds / size)} ${unit}`;
}
