import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import { round } from './stats';

/**
 * The CPU the pipeline's table calls cost by themselves (issue 32): after the events, the
 * same calls per event (`table_calls_per_event`), sent with a bare document client, as many
 * at once as the pipeline's writers, against the same DynamoDB Local, with items the size
 * of a stored event. What this process and DynamoDB Local's JVM spend on them is what the
 * pipeline would spend with no service code at all, before the stream reads, the queues and
 * the webhook POSTs. Over the offered rate it says how much of the machine's cores the
 * calls alone take: near 1, no code of the service can bring the latency down on this
 * machine.
 */
export interface PipelineFloor {
  /** This process's CPU per event for the bare calls. */
  readonly node_cpu_ms_per_event: number;
  /** DynamoDB Local's JVM CPU per event for them (absent where its /proc stat cannot be read). */
  readonly jvm_cpu_ms_per_event?: number;
  /** Both, times the offered events a second, over the machine's cores. */
  readonly cores_share_at_offered?: number;
}

/** A stored event's size, about: the envelope of a verify account's status change. */
const EVENT_BYTES = 1_200;
const AT_ONCE = 16;

export async function measurePipelineFloor(options: {
  readonly endpoint: string;
  readonly tableName: string;
  readonly jvmPid: number | undefined;
  readonly callsPerEvent: Readonly<Record<string, number>>;
  readonly events: number;
  readonly offeredPerS: number;
}): Promise<PipelineFloor> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: options.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  );
  const partition = `FLOOR#${randomUUID()}`;
  const payload = 'x'.repeat(EVENT_BYTES);
  const calls = callList(options.callsPerEvent, options.events);
  // The partition the Queries read holds an event and its attempts, as the delivery worker's does.
  for (let n = 0; n < 3; n++) {
    await db.send(new PutCommand({ TableName: options.tableName, Item: { pk: partition, sk: `S#${n}`, payload } }));
  }
  const send = (operation: string, n: number) => {
    const TableName = options.tableName;
    const Key = { pk: partition, sk: `S#${n % 3}` };
    switch (operation) {
      case 'Put':
        return db.send(new PutCommand({ TableName, Item: { pk: `${partition}#${n}`, sk: 'EVENT', payload } }));
      case 'Update':
        return db.send(
          new UpdateCommand({
            TableName,
            Key,
            UpdateExpression: 'SET v = if_not_exists(v, :zero) + :one',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
          }),
        );
      case 'Query':
        return db.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': partition },
          }),
        );
      default:
        return db.send(new GetCommand({ TableName, Key }));
    }
  };

  const nodeBefore = process.cpuUsage();
  const jvmBefore = processCpuMs(options.jvmPid);
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < calls.length) {
        const n = next++;
        await send(calls[n] as string, n);
      }
    }),
  );
  const node = process.cpuUsage(nodeBefore);
  const jvmAfter = processCpuMs(options.jvmPid);
  db.destroy();

  const nodeMs = (node.user + node.system) / 1000 / options.events;
  const jvmMs = jvmBefore !== undefined && jvmAfter !== undefined ? (jvmAfter - jvmBefore) / options.events : undefined;
  return {
    node_cpu_ms_per_event: round(nodeMs, 2),
    ...(jvmMs !== undefined && {
      jvm_cpu_ms_per_event: round(jvmMs, 2),
      cores_share_at_offered: round(((nodeMs + jvmMs) * options.offeredPerS) / (1000 * availableParallelism()), 2),
    }),
  };
}

/** The operations of `events` events, spread evenly: each operation's calls per event, rounded to whole calls. */
function callList(callsPerEvent: Readonly<Record<string, number>>, events: number): string[] {
  const calls = Object.entries(callsPerEvent).flatMap(([operation, perEvent]) =>
    Array.from({ length: Math.round(perEvent * events) }, () => operation),
  );
  // Interleaved, as the pipeline sends them: every operation throughout, not one after another.
  return calls
    .map((operation, n) => ({ operation, at: (n * 7919) % calls.length }))
    .sort((a, b) => a.at - b.at)
    .map(({ operation }) => operation);
}

/** A process's CPU time so far (user and system, its /proc stat in clock ticks of 10 ms); undefined where unreadable. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The command may hold spaces: the fields after its closing parenthesis are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields of stat(5), the 12th and 13th after the command.
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return undefined;
  }
}
/** Linux's USER_HZ, 100 on every architecture Node runs on. */
const CLOCK_TICK_MS = 10;
