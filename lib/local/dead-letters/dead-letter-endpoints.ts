import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod/mini';
import type { HttpResponse } from '../gateway/apigw-response';
import { header, isForLoopback, type LocalEndpoint, type LocalRequest } from '../gateway/local-endpoints';
import type { DeadLetterSummary, LocalQueues } from '../pipeline/local-queues';
import type { StreamFailure } from '../pipeline/stream-failure';
import {
  ReplayInProgressError,
  type StreamBatchRef,
  type StreamReplayAnswer,
  UnknownStreamBatchError,
} from '../pipeline/stream-replays';
import { STREAM_FAILURE_ADVICE } from './hints';

// `GET /local/dead-letters`, `POST /local/dead-letters/redrive` and `POST
// /local/dead-letters/replay` on `npm start`: the runtime's dead letters for a person, read
// by the console and `npm run dead-letters` (docs/local.md#dead-letters). LOCAL ONLY, NEVER
// DEPLOYED, and without a token: the dead letters are no tenant's. A redrive and a replay
// change state, so a web page the developer opens must not reach them: they take only a
// body typed `application/json`, which a page of another origin cannot send without a CORS
// preflight (and nothing here approves one), and every endpoint answers only requests
// naming the loopback host (isForLoopback).

export const DEAD_LETTERS_PATH = '/local/dead-letters';
export const REDRIVE_PATH = '/local/dead-letters/redrive';
export const REPLAY_PATH = '/local/dead-letters/replay';

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
  /** What to do about them: fix the cause, then replay them (REPLAY_PATH). */
  readonly streamFailureAdvice: string;
}

/** The answer of `POST /local/dead-letters/redrive`: how many messages went back to the queue. */
export interface RedriveAnswer {
  readonly queue: string;
  readonly moved: number;
}

const redriveRequest = z.strictObject({ queue: z.string() });
const replayRequest = z.strictObject({ consumer: z.string(), shardId: z.string(), startSequenceNumber: z.string() });

export function deadLetterEndpoints(pipeline: {
  readonly queues: LocalQueues;
  readonly streamFailures: readonly StreamFailure[];
  replayStreamFailure(batch: StreamBatchRef): Promise<StreamReplayAnswer>;
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
    {
      method: 'POST',
      path: REPLAY_PATH,
      id: 'LocalReplay',
      serve: (request) => refusal(request) ?? replay(pipeline, request),
    },
  ];
}

/** The same operation as `runtime.queues.redrive(queue)`: SQS's message move task. */
function redrive(queues: LocalQueues, request: LocalRequest): HttpResponse {
  const parsed = jsonBody(request, redriveRequest, '{"queue": "<queue>"}');
  if ('refusal' in parsed) return parsed.refusal;
  const known = queues.deadLetters().map((summary) => summary.queue);
  const queue = known.find((id) => id === parsed.body.queue);
  // As the contract's messages, it does not repeat what was sent.
  if (!queue) return error(400, 'unknown_queue', `the queue is none of ${known.join(', ')}`);
  return json(200, { queue, moved: queues.redrive(queue) } satisfies RedriveAnswer);
}

/** The same operation as `runtime.replayStreamFailure(batch)`: `npm run stream:replay` in AWS. */
async function replay(
  pipeline: { replayStreamFailure(batch: StreamBatchRef): Promise<StreamReplayAnswer> },
  request: LocalRequest,
): Promise<HttpResponse> {
  const shape = '{"consumer": "<consumer>", "shardId": "<shard>", "startSequenceNumber": "<sequence number>"}';
  const parsed = jsonBody(request, replayRequest, shape);
  if ('refusal' in parsed) return parsed.refusal;
  try {
    return json(200, await pipeline.replayStreamFailure(parsed.body));
  } catch (failure) {
    if (failure instanceof UnknownStreamBatchError) return error(404, 'unknown_stream_batch', failure.message);
    if (failure instanceof ReplayInProgressError) return error(409, 'replay_in_progress', failure.message);
    throw failure;
  }
}

/** The body, typed `application/json` and of the schema's shape, or the answer refusing it. */
function jsonBody<T>(
  request: LocalRequest,
  schema: z.ZodMiniType<T>,
  shape: string,
): { readonly body: T } | { readonly refusal: HttpResponse } {
  if (!/^application\/json\s*(;|$)/i.test(header(request, 'content-type') ?? '')) {
    return { refusal: error(415, 'unsupported_media_type', `send the body as application/json: ${shape}`) };
  }
  const parsed = schema.safeParse(parseJson(request.body));
  if (!parsed.success) return { refusal: error(400, 'invalid_json', `the body must be a JSON object: ${shape}`) };
  return { body: parsed.data };
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
