import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { bareReads, readCounts, waves } from '#test/bench/bare-waves';
import type { DynamoCall } from '#test/bench/call-recorder';

const call = (command: DynamoCall['command'], startedAt: number, ms: number, partition = 'p'): DynamoCall => ({
  kind: 'dynamodb',
  owner: 'handler',
  command,
  input: { TableName: 't', partition },
  startedAt,
  ms,
});

describe("a page's floor: its reads in the waves the handler sent them", () => {
  it('puts calls sent while others were in flight in one wave, and a call sent after all answered in the next', () => {
    const shardQueries = [0, 1, 2].map((n) => call(QueryCommand, n * 0.01, 5, `shard ${n}`));
    const second = call(QueryCommand, 4, 3, 'shard 0 again');
    const batchGet = call(GetCommand, 7.5, 1, 'item');

    expect(waves([batchGet, ...shardQueries, second])).toEqual([[...shardQueries, second], [batchGet]]);
  });

  it('starts a new wave when a call goes out exactly as the last one answers', () => {
    const first = call(QueryCommand, 0, 2);
    const next = call(QueryCommand, 2, 2);
    expect(waves([first, next])).toEqual([[first], [next]]);
  });

  it('replays the reads only, each wave after the one before has answered', async () => {
    const sent: string[] = [];
    let inFlight = 0;
    let most = 0;
    const db = {
      send: async (command: { input: { partition: string } }) => {
        inFlight++;
        most = Math.max(most, inFlight);
        sent.push(command.input.partition);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return {};
      },
    };
    const calls = [
      call(QueryCommand, 0, 5, 'a'),
      call(QueryCommand, 0.1, 5, 'b'),
      call(PutCommand, 6, 1, 'position'),
      call(GetCommand, 8, 1, 'item'),
    ];

    await bareReads(calls, db as never)();

    expect(sent).toEqual(['a', 'b', 'item']);
    expect(most).toBe(2);
    expect(readCounts(calls)).toEqual({ QueryCommand: 2, GetCommand: 1 });
  });
});
