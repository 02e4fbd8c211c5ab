import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod/mini';
import type { HttpResponse } from '../gateway/apigw-response';
import { header, isForLoopback, type LocalEndpoint, type LocalRequest } from '../gateway/local-endpoints';
import type { DeadLetterSummary, LocalQueues } from '../pipeline/local-queues';
import type { StreamFailure } from '../pipeline/stream-failure';
import { STREAM_FAILURE_ADVICE } from './hints';

// `GET /local/dead-letters` and `POST /local/dead-letters/redrive` on `npm start`: the
// runtime's dead letters for a person, read by the console and `npm run dead-letters`
// (docs/local.md#dead-letters). LOCAL ONLY, NEVER DEPLOYED, and without a token: the
// dead letters are no tenant's. The redrive changes state, so a web page the developer
// opens must not reach it: it takes only a body typed `application/json`, which a page of
// another origin cannot send without a CORS preflight (and nothing here approves one), and
// both answer only requests naming the loopback host (isForLoopback).

export const DEAD_LETTERS_PATH = '/local/dead-letters';
export const REDRIVE_PATH = '/local/dead-letters/redrive';

/** A stream batch given up, as AWS's on-failure message describes it, with its records' keys instead of the records. */
export interface StreamFailureView extends Omit<StreamFailure, 'records'> {
  /** What `aws dynamodbstreams get-records` would show of each: enough to find the item, none of its attributes. */
  readonly records: readonly { sequenceNumber?: string; eventName?: string; keys: Record<string, unknown> }[];
}

/** The answer of `GET /local/dead-letters`. */
export interface DeadLettersView {
  readonly deadLetterQueues: readonly DeadLetterSummary[];
  /** The stream consumers' on-failure destination, oldest first. */
  readonly streamFailures: readonly StreamFailureView[];
  /** What to do about them: there is no redrive for a stream batch. */
  readonly streamFailureAdvice: string;
}

/** The answer of `POST /local/dead-letters/redrive`: how many messages went back to the queue. */
export interface RedriveAnswer {
  readonly queue: string;
  readonly moved: number;
}

const redriveRequest = z.strictObject({ queue: z.string() });

export function deadLetterEndpoints(pipeline: {
  readonly queues: LocalQueues;
  readonly streamFailures: readonly StreamFailure[];
}): LocalEndpoint[] {
  return [
    {
      method: 'GET',
      path: DEAD_LETTERS_PATH,
      id: 'LocalDeadLetters',
      serve: (request) =>
        refusal(request) ??
        json(200, {
          deadLetterQueues: pipeline.queues.deadLetters(),
          streamFailures: pipeline.streamFailures.map(withKeysOnly),
          streamFailureAdvice: STREAM_FAILURE_ADVICE,
        } satisfies DeadLettersView),
    },
    {
      method: 'POST',
      path: REDRIVE_PATH,
      id: 'LocalRedrive',
      serve: (request) => refusal(request) ?? redrive(pipeline.queues, request),
    },
  ];
}

/** The same operation as `runtime.queues.redrive(queue)`: SQS's message move task. */
function redrive(queues: LocalQueues, request: LocalRequest): HttpResponse {
  if (!/^application\/json\s*(;|$)/i.test(header(request, 'content-type') ?? '')) {
    return error(415, 'unsupported_media_type', 'send the body as application/json: {"queue": "<queue>"}');
  }
  const parsed = redriveRequest.safeParse(parseJson(request.body));
  if (!parsed.success) {
    return error(400, 'invalid_json', 'the body must be a JSON object naming one queue: {"queue": "<queue>"}');
  }
  const known = queues.deadLetters().map((summary) => summary.queue);
  const queue = known.find((id) => id === parsed.data.queue);
  // As the contract's messages, it does not repeat what was sent.
  if (!queue) return error(400, 'unknown_queue', `the queue is none of ${known.join(', ')}`);
  return json(200, { queue, moved: queues.redrive(queue) } satisfies RedriveAnswer);
}

function refusal(request: LocalRequest): HttpResponse | undefined {
  if (isForLoopback(request)) return undefined;
  return error(403, 'not_loopback', 'the local dead-letter endpoints answer only requests for 127.0.0.1 or localhost');
}

function withKeysOnly({ records, ...failure }: StreamFailure): StreamFailureView {
  return {
    ...failure,
    records: records.map((record) => ({
      sequenceNumber: record.dynamodb?.SequenceNumber,
      eventName: record.eventName,
      keys: unmarshall((record.dynamodb?.Keys ?? {}) as Record<string, AttributeValue>),
    })),
  };
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The contract's error shape, `{ error_code, message }` (the gateway's `apigw-requestid` header names the request). */
const error = (statusCode: number, code: string, message: string): HttpResponse =>
  json(statusCode, { error_code: code, message });

function json(statusCode: number, body: unknown): HttpResponse {
  return {
    statusCode,
    // The counts change from one moment to the next.
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}
