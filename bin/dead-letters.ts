import { commandLine, usageError } from '#lib/command-line';
import {
  DEAD_LETTERS_PATH,
  type DeadLettersView,
  REDRIVE_PATH,
  REPLAY_PATH,
  type RedriveAnswer,
  type StreamFailureView,
} from '#lib/local/dead-letters/dead-letter-endpoints';
import { parkedLine, redriveHint, replayHint } from '#lib/local/dead-letters/hints';
import { DEFAULT_PORT, LOCAL_HOST } from '#lib/local/local-address';
import type { StreamReplayAnswer } from '#lib/local/pipeline/stream-replays';

// `npm run dead-letters [-- --redrive <queue> | --all | --replay <sequence number>] [--url
// <runtime>]`: the dead letters of a running `npm start`, their redrive, and the replay of
// a stream batch given up, through its local endpoints (docs/local.md#dead-letters). It
// talks to the runtime rather than reading DATA_DIR, as the runtime holds the queues (and a
// journal written by two processes would be damaged).

const USAGE = `usage: npm run dead-letters [-- --redrive <queue> | --all | --replay <sequence number>] [--url http://${LOCAL_HOST}:${DEFAULT_PORT}]
  (no option: list each dead-letter queue and the stream batches given up; --redrive a queue, or --all, to send its messages back;
  --replay the stream batch given up that starts at that sequence number, to hand its records to its consumer again)`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

const values = commandLine(USAGE, {
  redrive: { type: 'string' },
  all: { type: 'boolean' },
  replay: { type: 'string' },
  url: { type: 'string' },
});
if ([values.redrive !== undefined, values.all, values.replay !== undefined].filter(Boolean).length > 1) {
  usageError(USAGE, '--redrive, --all and --replay exclude each other');
}

const url = (values.url ?? `http://${LOCAL_HOST}:${process.env.PORT || DEFAULT_PORT}`).replace(/\/+$/, '');

/** One request to the runtime; any failure ends the command with one line saying why. */
async function ask<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  } catch {
    fail(`no local runtime answers at ${url}: start one with npm start, or name its URL with --url`);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok && answer !== undefined) return answer as T;
  const refusal = answer as { error_code?: string; message?: string } | undefined;
  if (refusal?.error_code) fail(`${refusal.error_code}: ${refusal.message}`);
  fail(`${url}${path} answered ${response.status}: is it npm start of this repository, and as new as this command?`);
}

const redrive = async (queue: string) => {
  const { moved } = await ask<RedriveAnswer>(REDRIVE_PATH, { queue });
  console.log(`${queue}: ${moved} message(s) moved back to their queue, each as a new message`);
};

/** Replays every batch given up that starts at the sequence number (one per consumer that gave one up there). */
async function replay(startSequenceNumber: string) {
  const { streamFailures } = await ask<DeadLettersView>(DEAD_LETTERS_PATH);
  const batches = streamFailures.filter(({ batchInfo }) => batchInfo.startSequenceNumber === startSequenceNumber);
  if (batches.length === 0) {
    fail(`no stream batch given up at ${url} starts at ${startSequenceNumber}: npm run dead-letters lists them`);
  }
  let replayed = true;
  for (const { consumer, batchInfo } of batches) {
    const answer = await ask<StreamReplayAnswer>(REPLAY_PATH, {
      consumer,
      shardId: batchInfo.shardId,
      startSequenceNumber,
    });
    console.log(`${consumer} from ${startSequenceNumber}: ${answer.message}`);
    replayed &&= answer.result === 'replayed';
  }
  if (!replayed) process.exit(1);
}

if (values.redrive !== undefined) {
  await redrive(values.redrive);
} else if (values.replay !== undefined) {
  await replay(values.replay);
} else if (values.all) {
  const { deadLetterQueues } = await ask<DeadLettersView>(DEAD_LETTERS_PATH);
  const holding = deadLetterQueues.filter((summary) => summary.count > 0);
  if (holding.length === 0) console.log(`no dead letters at ${url}`);
  for (const { queue } of holding) await redrive(queue);
} else {
  const { deadLetterQueues, streamFailures, streamFailureAdvice } = await ask<DeadLettersView>(DEAD_LETTERS_PATH);
  console.log(`Dead-letter queues of ${url}:`);
  for (const summary of deadLetterQueues) {
    console.log(`  ${parkedLine(summary)}`);
    if (summary.count > 0) console.log(`    ${redriveHint(summary.queue, url)}`);
  }
  console.log(`Stream batches given up (on-failure destination):${streamFailures.length === 0 ? ' none' : ''}`);
  for (const failure of streamFailures) {
    console.log(streamFailureLines(failure));
    console.log(`    ${replayHint(failure.batchInfo.startSequenceNumber, url)}`);
  }
  if (streamFailures.length > 0) console.log(`  ${streamFailureAdvice}`);
}

function streamFailureLines({ consumer, batchInfo, attempts, error, at, records }: StreamFailureView): string {
  const range = `${batchInfo.startSequenceNumber}–${batchInfo.endSequenceNumber}`;
  return [
    `  ${consumer} at ${at}: shard ${batchInfo.shardId}, sequence ${range}, ${batchInfo.batchSize} record(s), ${attempts} attempts: ${error}`,
    ...records.map(({ eventName, keys }) => `    ${eventName} ${Object.values(keys).join(' ')}`),
  ].join('\n');
}
