import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { TABLE_SCHEMA } from '#shared/db/schema';

// What the loopback proxies in front of DynamoDB Local (./faults/dynamodb-fault-proxy.ts,
// ./iam/dynamodb-iam-proxy.ts) share: a request they let through goes on to the upstream
// as it came, over kept-alive connections, and the upstream's answer comes back as it is;
// a transaction's answer only once it is committed (`commitBarrier`).

/** Forwards a proxy's requests to one upstream (DynamoDB Local's endpoint). */
export class UpstreamForwarder {
  private readonly target: URL;
  private readonly agent = new Agent({ keepAlive: true });

  constructor(upstream: string) {
    this.target = new URL(upstream);
  }

  /**
   * Sends the request on: its body already read (`body`), or else the request itself,
   * streamed. A TransactWriteItems whose body was read is answered only after its commit
   * barrier (`commitBarrier`); if the barrier gets no answer, neither does the caller.
   */
  forward(request: IncomingMessage, response: ServerResponse, body?: Buffer): void {
    const sent = httpRequest(this.options(request, request.headers), (answer) => {
      const barrier = body && answer.statusCode === 200 ? commitBarrier(request, body) : undefined;
      if (!barrier) {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        this.send(request, barrier).then(
          () => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            response.end(Buffer.concat(chunks));
          },
          () => request.socket.destroy(),
        );
      });
    });
    // The upstream gone (the runtime stopping): the client sees a dropped connection.
    sent.on('error', () => request.socket.destroy());
    if (body === undefined) request.pipe(sent);
    else sent.end(body);
  }

  /** Sends `barrier` upstream with the request's headers; resolves once it is answered 200. */
  private send(request: IncomingMessage, barrier: Barrier): Promise<void> {
    const payload = Buffer.from(JSON.stringify(barrier.body));
    const headers = {
      ...request.headers,
      'x-amz-target': barrier.target,
      'content-length': String(payload.length),
    };
    return new Promise((resolve, reject) => {
      const sent = httpRequest(this.options(request, headers), (answer) => {
        answer.resume();
        answer.on('end', () => (answer.statusCode === 200 ? resolve() : reject(new Error(`${answer.statusCode}`))));
        answer.on('error', reject);
      });
      sent.on('error', reject);
      sent.end(payload);
    });
  }

  private options(request: IncomingMessage, headers: IncomingMessage['headers']) {
    return {
      host: this.target.hostname,
      port: this.target.port,
      method: request.method,
      path: request.url,
      headers,
      agent: this.agent,
    };
  }

  /** Closes the kept-alive connections to the upstream. */
  destroy(): void {
    this.agent.destroy();
  }
}

/** A request sent upstream after another, and before that one is answered: its target and body. */
interface Barrier {
  readonly target: string;
  readonly body: unknown;
}

/** The key attributes of the service's table (TABLE_SCHEMA, as lib/local/table.ts builds it): all a GetItem needs. */
const KEY_ATTRIBUTES: readonly string[] = [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey];

/**
 * DynamoDB Local answers a TransactWriteItems before it commits it: its
 * `SQLiteDBAccess.commitTransaction` hands COMMIT to its SQLite queue and returns without
 * waiting, so a JVM killed a moment after the answer loses a transaction it acknowledged
 * (docs/local.md#when-dynamodb-local-dies). A strongly consistent GetItem of the
 * transaction's first item runs on that queue after the COMMIT: once it is answered, the
 * transaction is on disk. Undefined for any other request (each is committed before its
 * answer) or a body this cannot read (then the answer passes as it came).
 */
export function commitBarrier(request: IncomingMessage, body: Buffer): Barrier | undefined {
  if (request.headers['x-amz-target'] !== 'DynamoDB_20120810.TransactWriteItems') return undefined;
  try {
    const [first] = (JSON.parse(body.toString('utf8')) as { TransactItems?: Record<string, TransactItem>[] })
      .TransactItems ?? [{}];
    const item = first && Object.values(first)[0];
    const attributes = item?.Key ?? item?.Item;
    if (!item?.TableName || !attributes) return undefined;
    const Key = Object.fromEntries(Object.entries(attributes).filter(([name]) => KEY_ATTRIBUTES.includes(name)));
    return {
      target: 'DynamoDB_20120810.GetItem',
      body: { TableName: item.TableName, Key, ConsistentRead: true, ProjectionExpression: 'pk' },
    };
  } catch {
    return undefined;
  }
}

/** One item of a TransactWriteItems as sent: its table, and its key (or, for a Put, its item). */
interface TransactItem {
  readonly TableName?: string;
  readonly Key?: Record<string, unknown>;
  readonly Item?: Record<string, unknown>;
}
