import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { round } from './stats';

/**
 * Counts the commands the service's document client sends while `recording` is set, by
 * operation (GetItem, Query, PutItem, …): the pipeline's table calls per event, a figure
 * the machine's load does not move, beside the timings it does (issue 21). The stream
 * poller's GetRecords go through a client of their own and are not counted.
 */
export class TableCallCounter {
  recording = false;
  private readonly counts = new Map<string, number>();

  /** Counts `client`'s commands from now on; returns the way back to its own `send`. */
  attach(client: DynamoDBDocumentClient): () => void {
    const send = client.send.bind(client) as (command: any, ...rest: any[]) => Promise<any>;
    const counted = (command: any, ...rest: any[]) => {
      if (this.recording) {
        const operation = String(command.constructor.name).replace(/Command$/, '');
        this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
      }
      return send(command, ...rest);
    };
    Object.assign(client, { send: counted });
    return () => Object.assign(client, { send });
  }

  /** Calls per event by operation, and their total. */
  perEvent(events: number): { total: number; by_operation: Record<string, number> } {
    const byOperation = Object.fromEntries([...this.counts].sort().map(([name, n]) => [name, round(n / events, 2)]));
    const total = [...this.counts.values()].reduce((sum, n) => sum + n, 0);
    return { total: round(total / events, 2), by_operation: byOperation };
  }
}
