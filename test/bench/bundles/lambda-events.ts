import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DynamoDBRecord, DynamoDBStreamEvent, ScheduledEvent, SQSEvent } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '#lib/local/aws-account';
import { buildEvent, newRequestId } from '#lib/local/gateway/apigw-event';
import { scheduledEvent as scheduledEventOf } from '#lib/local/pipeline/schedule-runner';
import { QUEUE_SETTINGS, type RouteDefinition } from '#lib/service/index';
import { SERVICE_VERSION } from '#shared/http/middlewares';
import type { QueueId } from '#shared/queue/message-queue';

/**
 * The events Lambda hands each kind of function, built the way the local runtime builds
 * them (HTTP API payload 2.0 through lib/local's gateway code; SQS records as its queue
 * consumer makes them; the EventBridge schedule event), so a bundle sees what it would see
 * deployed: every header an HTTP API passes on, the authorizer's claims, record metadata.
 */

export interface HttpCall {
  /** The partner (its token's client id); the tenant, as no alias is set. */
  readonly tenant: string;
  readonly pathParameters?: Readonly<Record<string, string>>;
  /** Without `?`, e.g. `size=50&verification_status=valid`. */
  readonly query?: string;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
  /** The token's scopes beyond the route's own, as a partner's token holds several. */
  readonly scopes?: readonly string[];
}

/** A Cognito access token's size: API Gateway hands the `Authorization` header on to the function. */
const BEARER = `Bearer ${randomBytes(620).toString('base64url')}`;

export function httpEvent(route: RouteDefinition, call: HttpCall) {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = call.pathParameters?.[name];
    if (value === undefined) throw new Error(`${route.id}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const body = call.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(call.body), 'utf8');
  const headers: Record<string, string> = {
    host: 'api.verify.example.com',
    'user-agent': 'partner-client/2.4 (node)',
    accept: 'application/json',
    authorization: BEARER,
    'service-version': SERVICE_VERSION,
    ...(body.length > 0 && { 'content-type': 'application/json', 'content-length': String(body.length) }),
    ...(call.idempotencyKey && { 'idempotency-key': call.idempotencyKey }),
  };
  const issuedAt = Math.floor(Date.now() / 1000);
  return buildEvent(
    {
      method: route.method,
      target: call.query ? `${path}?${call.query}` : path,
      rawHeaders: Object.entries(headers).flat(),
      body,
      sourceIp: '203.0.113.7',
      httpVersion: '1.1',
      localPort: 443,
    },
    {
      route,
      pathParameters: { ...call.pathParameters },
      // What a Cognito client-credentials token carries; the authorizer passes them on as strings.
      claims: {
        sub: call.tenant,
        client_id: call.tenant,
        token_use: 'access',
        scope: [...new Set([...route.scopes, ...(call.scopes ?? [])])]
          .map((scope) => `verify-service/${scope}`)
          .join(' '),
        auth_time: issuedAt,
        iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_bench',
        exp: issuedAt + 3600,
        iat: issuedAt,
        version: 2,
        jti: randomUUID(),
      },
      requestId: newRequestId(),
      receivedAt: new Date(),
    },
  );
}

/** An SQS batch as the event source mapping delivers it from the queue. */
export function sqsEvent(queue: QueueId, bodies: readonly string[]): SQSEvent {
  const sentAt = Date.now();
  return {
    Records: bodies.map((body) => ({
      messageId: randomUUID(),
      receiptHandle: randomBytes(96).toString('base64'),
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(sentAt),
        SenderId: LOCAL_ACCOUNT_ID,
        ApproximateFirstReceiveTimestamp: String(sentAt + 20),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(body, 'utf8').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:${QUEUE_SETTINGS[queue].name}`,
      awsRegion: LOCAL_REGION,
    })),
  };
}

export const streamEvent = (records: readonly DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: [...records] });

/** What an EventBridge schedule rule delivers, as the local runtime builds it. */
export const scheduledEvent = (rule: string): ScheduledEvent => scheduledEventOf(rule, LOCAL_REGION);

/** `n` items taken round and round from `items` (a consumer may see a message twice; all are idempotent). */
export function cycle<T>(items: readonly T[], n: number): T[] {
  if (items.length === 0) throw new Error('nothing to cycle through');
  return Array.from({ length: n }, (_, i) => items[i % items.length] as T);
}

/** `items` cut into `n` batches of (nearly) equal size, at most `max` each, in order. */
export function batches<T>(items: readonly T[], n: number, max: number): T[][] {
  const size = Math.max(1, Math.min(max, Math.floor(items.length / n)));
  if (items.length === 0) throw new Error('nothing to cut into batches');
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: size }, (_, j) => items[(i * size + j) % items.length] as T),
  );
}
