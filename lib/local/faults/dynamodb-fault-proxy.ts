import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { closeServer, listenOnLoopback } from '../loopback-server';
import { UpstreamForwarder } from '../upstream-forwarder';
import type { Fault } from './fault-injector';

// DynamoDB's faults on the wire, so that the handlers' real SDK client meets them as it
// would meet DynamoDB's: it classifies the answer, retries it with its own backoff (3
// attempts by default), and surfaces what is left. A faulted request is answered before it
// is forwarded: it never reached the table, so whether it took effect is never in doubt.
// Nothing of a request is logged or kept (its body holds the items).

/** DynamoDB's JSON error (awsJson1_0): the SDK reads the error's name from `__type`, after the `#`. */
interface DynamoDbError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

const THROTTLED: readonly DynamoDbError[] = [
  {
    status: 400,
    type: 'ProvisionedThroughputExceededException',
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  },
  {
    status: 400,
    type: 'ThrottlingException',
    message:
      'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly.',
  },
];
const UNAVAILABLE: readonly DynamoDbError[] = [
  { status: 500, type: 'InternalServerError', message: 'Internal server error' },
  { status: 503, type: 'ServiceUnavailable', message: 'Service unavailable' },
];

/** `roll` in [0, 1) picks one of the variants. */
const pick = <T>(variants: readonly T[], roll: number): T => variants[Math.floor(roll * variants.length)] as T;

export interface DynamoDbFaultProxy {
  /** Where the handlers' client is pointed (`AWS_ENDPOINT_URL_DYNAMODB`). */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of DynamoDB Local (`upstream`) that draws a fault for each
 * request: `throttle` answers 400 ProvisionedThroughputExceededException or
 * ThrottlingException, `5xx` 500 InternalServerError or 503 ServiceUnavailable, `reset`
 * destroys the connection without an answer, `timeout` holds the request for the latency
 * and then destroys it, `slow` forwards it after the latency.
 */
export async function startDynamoDbFaultProxy(
  upstream: string,
  draw: () => Fault | undefined,
): Promise<DynamoDbFaultProxy> {
  // With DynamoDB Local gone (the runtime stopping) the forwarder drops the client's connection, as `reset` does.
  const forwarder = new UpstreamForwarder(upstream);

  const server = createServer((request, response) => {
    const fault = draw();
    if (fault === undefined) return forwarder.forward(request, response);
    if (fault.kind === 'slow') {
      // The body waits, unread, in the paused request until it is forwarded.
      void delay(fault.latencyMs).then(() => forwarder.forward(request, response));
      return;
    }
    // The whole request is read first, as DynamoDB reads it before it answers.
    request.resume();
    request.on('end', async () => {
      if (fault.kind === 'reset') return request.socket.destroy();
      if (fault.kind === 'timeout') {
        await delay(fault.latencyMs);
        return request.socket.destroy();
      }
      answerError(response, pick(fault.kind === 'throttle' ? THROTTLED : UNAVAILABLE, fault.roll));
    });
  });
  const endpoint = await listenOnLoopback(server);

  return {
    endpoint,
    stop: () => {
      const closed = closeServer(server);
      forwarder.destroy();
      return closed;
    },
  };
}

function answerError(response: ServerResponse, error: DynamoDbError): void {
  const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${error.type}`, message: error.message });
  response.writeHead(error.status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': randomUUID(),
    'x-amzn-errortype': error.type,
  });
  response.end(body);
}
