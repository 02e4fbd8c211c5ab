import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoCall } from './call-recorder';

// The floor of a page that reads several partitions side by side: the same read
// commands the handler sent, in the same waves (those it had in flight together sent
// together, each wave after the one before ends), with a bare document client and
// nothing around them. What a page costs over its floor is the service's; what the
// floor itself grows by, from one list shard to eight, is the reads' own.

/** Commands a list page sends that only read: replayed as they are, on the same table. */
const READS = new Set(['QueryCommand', 'BatchGetCommand', 'GetCommand']);

/**
 * The calls in waves: a call joins the wave in flight when it was sent before every call
 * of that wave had answered, else it starts the next. Calls need `startedAt` and `ms`.
 */
export function waves(calls: readonly DynamoCall[]): DynamoCall[][] {
  const sorted = [...calls].sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
  const grouped: DynamoCall[][] = [];
  let current: DynamoCall[] = [];
  let lastEnd = -Infinity;
  for (const call of sorted) {
    const start = call.startedAt ?? 0;
    if (current.length > 0 && start >= lastEnd) {
      grouped.push(current);
      current = [];
      lastEnd = -Infinity;
    }
    current.push(call);
    lastEnd = Math.max(lastEnd, start + (call.ms ?? 0));
  }
  if (current.length > 0) grouped.push(current);
  return grouped;
}

/** The read commands of `calls`, wave by wave, sent with `db`: one run of the page's floor. */
export function bareReads(calls: readonly DynamoCall[], db: DynamoDBDocumentClient): () => Promise<void> {
  const reads = waves(calls.filter((call) => READS.has(call.command.name)));
  return async () => {
    for (const wave of reads) {
      await Promise.all(wave.map((call) => db.send(new call.command(call.input))));
    }
  };
}

/** How many read commands of each kind a page sent, e.g. `{ QueryCommand: 40, BatchGetCommand: 1 }`. */
export function readCounts(calls: readonly DynamoCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) {
    if (READS.has(call.command.name)) counts[call.command.name] = (counts[call.command.name] ?? 0) + 1;
  }
  return counts;
}
