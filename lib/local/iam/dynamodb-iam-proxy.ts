import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { accessKeyIdOf, closeServer, listenOnLoopback, readBody } from '../loopback-server';
import { UpstreamForwarder } from '../upstream-forwarder';
import { iamRequestsOf } from './dynamodb-requests';
import { evaluatePolicy, type PolicyDecision, type PolicyRequest } from './policy-evaluator';
import { SESSION_KEY_PREFIX, type StandInSession } from './sts-stand-in';

// IAM on the wire in front of DynamoDB Local, which enforces none: a call signed with a
// session of the STS stand-in (./sts-stand-in.ts) is read, turned into the IAM requests it
// makes (./dynamodb-requests.ts) and evaluated against the session's role, as DynamoDB's
// authorization would; a call it would refuse is answered with DynamoDB's own
// AccessDeniedException and never reaches the table. Calls signed with any other key (a
// function's own role, `local`) pass untouched, streamed. Nothing of a body is logged or
// kept but the actions, resources and partition keys (tenants, ids and digests).

/** DynamoDB's largest request (a BatchWriteItem of 16 MB), with room for the JSON around it. */
const MAX_BODY_BYTES = 17 * 1024 * 1024;

/** One call of a session, decided: its IAM requests, and the first one refused, if any. */
export interface DecidedCall {
  readonly session: StandInSession;
  readonly requests: readonly PolicyRequest[];
  readonly refused?: { readonly request: PolicyRequest; readonly decision: PolicyDecision };
}

/** Where the proxy forwards, whose sessions it knows, and whom it tells what it decided. */
export interface DynamoDbIamProxyOptions {
  /** DynamoDB Local's endpoint. */
  readonly upstream: string;
  /** The session an access key id stands for (`StsStandIn.session`). */
  readonly session: (accessKeyId: string) => StandInSession | undefined;
  /** A table's ARN, as the sessions' statements name it. */
  readonly tableArn: (tableName: string) => string;
  /** The clock sessions lapse by (the STS stand-in's). Default `Date.now`. */
  readonly now?: () => number;
  /** Told of each call of a session once decided, allowed or refused. */
  readonly onDecided?: (call: DecidedCall) => void;
}

/** The running proxy. */
export interface DynamoDbIamProxy {
  /** Where the handlers' DynamoDB client is pointed (directly, or behind the fault proxy). */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** A DynamoDB JSON error (awsJson1_0): the SDK names the error by `__type`, after the `#`. */
interface DynamoDbError {
  readonly type: string;
  readonly message: string;
}

const EXPIRED: DynamoDbError = {
  type: 'com.amazon.coral.service#ExpiredTokenException',
  message: 'The security token included in the request is expired',
};
const UNRECOGNIZED: DynamoDbError = {
  type: 'com.amazon.coral.service#UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
};

/** The AccessDeniedException DynamoDB answers, in IAM's words. */
const accessDenied = (session: StandInSession, request: PolicyRequest, decision: PolicyDecision): DynamoDbError => ({
  type: 'com.amazon.coral.service#AccessDeniedException',
  message: `User: ${session.assumedRoleArn} is not authorized to perform: ${request.action} on resource: ${request.resource} ${
    decision === 'explicitly-denied'
      ? 'with an explicit deny in an identity-based policy'
      : `because no identity-based policy allows the ${request.action} action`
  }`,
});

/** Starts the proxy on a free loopback port, in front of `options.upstream`. */
export async function startDynamoDbIamProxy(options: DynamoDbIamProxyOptions): Promise<DynamoDbIamProxy> {
  const forwarder = new UpstreamForwarder(options.upstream);
  const now = options.now ?? Date.now;

  /** Decides a session's call: every IAM request it makes must be allowed. */
  const enforce = async (session: StandInSession, request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request, MAX_BODY_BYTES);
    if (session.expiration.getTime() <= now()) return answerError(response, EXPIRED);
    if (request.headers['x-amz-security-token'] !== session.sessionToken) return answerError(response, UNRECOGNIZED);
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const requests = iamRequestsOf(operation, JSON.parse(body.toString('utf8')), options.tableArn);
    let refused: DecidedCall['refused'];
    for (const iamRequest of requests) {
      const decision = evaluatePolicy(session.statements, iamRequest, session.tags);
      if (decision !== 'allowed') {
        refused = { request: iamRequest, decision };
        break;
      }
    }
    options.onDecided?.({ session, requests, ...(refused && { refused }) });
    if (refused) return answerError(response, accessDenied(session, refused.request, refused.decision));
    forwarder.forward(request, response, body);
  };

  const server = createServer((request, response) => {
    const keyId = accessKeyIdOf(request);
    const session = keyId === undefined ? undefined : options.session(keyId);
    if (session) {
      void enforce(session, request, response).catch((error: unknown) => answerUnreadable(response, error));
      return;
    }
    if (keyId?.startsWith(SESSION_KEY_PREFIX)) {
      // A temporary key the stand-in never issued (or forgot, long expired) is no key at all.
      request.resume();
      return answerError(response, UNRECOGNIZED);
    }
    forwarder.forward(request, response);
  });

  const endpoint = await listenOnLoopback(server);
  return {
    endpoint,
    stop: async () => {
      await closeServer(server);
      forwarder.destroy();
    },
  };
}

/**
 * A session's call the proxy could not read, or whose policy it cannot evaluate (a form
 * the evaluator does not model): refused as DynamoDB refuses a malformed call, saying why.
 */
function answerUnreadable(response: ServerResponse, error: unknown): void {
  const why = error instanceof Error ? error.message : String(error);
  answerError(response, {
    type: 'com.amazon.coral.validate#ValidationException',
    message: `local IAM stand-in: ${why}`,
  });
}

function answerError(response: ServerResponse, error: DynamoDbError): void {
  const body = JSON.stringify({ __type: error.type, Message: error.message });
  response.writeHead(400, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': randomUUID(),
  });
  response.end(body);
}
