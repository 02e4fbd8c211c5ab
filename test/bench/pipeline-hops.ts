import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import type { FunctionDefinition, LambdaInvoker } from '#lib/local/lambda-invoker';
import type { Arrival } from './receiver';
import { percentile, round } from './stats';

/**
 * Where an event's latency goes, hop by hop (issue 21): the pipeline bench wraps its
 * invoker in a HopTrace, which notes when each stream router batch and each delivery
 * batch began and ended and which records it held. An event's path is then:
 *
 * - `stream → router`: the account's change (its write) until the router's batch holding it begins
 *   (the stream poller's interval, and batches queued ahead of it on the shard);
 * - `router (change)`: that batch, which stores the event;
 * - `stream → router (event)`: until the batch holding the stored event's INSERT begins;
 * - `router (event)`: that batch, which fans the event out and sends the deliveries at its end;
 * - `queue → worker`: until the delivery batch holding it begins (the consumers' backlog);
 * - `worker → receiver`: from that batch's start until the receiver has the webhook.
 */
export interface HopFigures {
  readonly hop: string;
  readonly p50_ms: number;
  readonly p99_ms: number;
  /** This hop's share of the summed p99 event's latency (the event at the overall p99). */
  readonly share_of_p99: number;
}

interface Span {
  readonly start: number;
  end: number;
}

const ROUTER = 'StreamRouter';
const DELIVERY = 'WebhookDeliveryWorker';

export class HopTrace {
  /** By record kind and item id: `MODIFY <account id>` for a change, `INSERT <event id>` for a stored event. */
  private readonly routerSpans = new Map<string, Span>();
  /** By event id. */
  private readonly deliverySpans = new Map<string, Span>();

  /** Wraps `invoker`: every StreamRouter and WebhookDeliveryWorker batch is noted, first time only. */
  wrap(invoker: LambdaInvoker): LambdaInvoker {
    const original = invoker.invoke.bind(invoker);
    invoker.invoke = async (fn: FunctionDefinition, event: unknown) => {
      const span: Span = { start: Date.now(), end: Number.NaN };
      const keys =
        fn.name === ROUTER ? routerKeys(event as DynamoDBStreamEvent) : fn.name === DELIVERY ? deliveryKeys(event) : [];
      const into = fn.name === ROUTER ? this.routerSpans : this.deliverySpans;
      for (const key of keys) if (!into.has(key)) into.set(key, span);
      try {
        return await original(fn, event);
      } finally {
        span.end = Date.now();
      }
    };
    return invoker;
  }

  figures(arrivals: readonly Arrival[]): HopFigures[] {
    const paths = arrivals.flatMap((arrival) => {
      const change = this.routerSpans.get(`MODIFY ${arrival.envelope.event_data.account?.id}`);
      const stored = this.routerSpans.get(`INSERT ${arrival.envelope.event_id}`);
      const delivery = this.deliverySpans.get(arrival.envelope.event_id);
      if (!change || !stored || !delivery) return [];
      const hops = [
        change.start - arrival.createdAt,
        change.end - change.start,
        stored.start - change.end,
        stored.end - stored.start,
        delivery.start - stored.end,
        arrival.arrivedAt - delivery.start,
      ];
      return [{ total: arrival.arrivedAt - arrival.createdAt, hops }];
    });
    if (paths.length === 0) return [];
    const atP99 = paths.toSorted((a, b) => a.total - b.total)[Math.ceil(0.99 * paths.length) - 1] ?? paths[0];
    const names = [
      'stream → router',
      'router (change)',
      'stream → router (event)',
      'router (event)',
      'queue → worker',
      'worker → receiver',
    ];
    return names.map((hop, index) => {
      const values = paths.map((path) => path.hops[index] ?? 0);
      return {
        hop,
        p50_ms: round(percentile(values, 50)),
        p99_ms: round(percentile(values, 99)),
        share_of_p99: round((atP99?.hops[index] ?? 0) / Math.max(1, atP99?.total ?? 1), 2),
      };
    });
  }
}

function routerKeys(event: DynamoDBStreamEvent): string[] {
  return event.Records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    if (!image) return [];
    const id = unmarshall(image as Record<string, AttributeValue>).id;
    return typeof id === 'string' ? [`${record.eventName} ${id}`] : [];
  });
}

function deliveryKeys(event: unknown): string[] {
  return (event as SQSEvent).Records.map((record) =>
    String((JSON.parse(record.body) as { event_id?: string }).event_id),
  );
}
