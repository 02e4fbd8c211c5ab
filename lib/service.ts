import { ENTITY } from '#shared/db/keys';
import type { QueueId } from '#shared/queue/message-queue';
import type { Scope } from '#shared/scopes';

/**
 * The service, described once. The CDK stack makes one Lambda function and one HTTP API
 * route per entry; the local runtime mounts the very same handler modules. Add an
 * endpoint by adding a handler file and a row here.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a function may do with the table: the grant is derived from this alone. */
export type TableAccess = 'read' | 'readwrite';

/** What a function may do with the cipher key (SSNs and tax ids). */
export type CipherAccess = 'encrypt' | 'decrypt';

export interface RouteDefinition {
  /** Stable PascalCase name: construct ids, function names and log fields derive from it. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway route path, with `{param}` placeholders. */
  readonly path: string;
  /**
   * OAuth scopes of the route. Like API Gateway's JWT authorizer, a token must carry at
   * least one of them; every route names exactly one, so that is also "all of them".
   */
  readonly scopes: readonly Scope[];
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly handler: string;
  readonly table: TableAccess;
  readonly cipher?: CipherAccess;
}

/** Every API function's timeout: below API Gateway's 30 s limit; the local runtime enforces the same. */
export const API_FUNCTION_TIMEOUT_SECONDS = 10;

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'CreateVerifyAccount',
    method: 'POST',
    path: '/verify/accounts',
    scopes: ['write:verify-accounts'],
    handler: 'functions/verify-accounts/create.ts',
    table: 'readwrite',
    cipher: 'encrypt',
  },
  {
    id: 'ListVerifyAccounts',
    method: 'GET',
    path: '/verify/accounts',
    scopes: ['read:verify-accounts'],
    handler: 'functions/verify-accounts/list.ts',
    table: 'read',
  },
  {
    id: 'GetVerifyAccount',
    method: 'GET',
    path: '/verify/accounts/{id}',
    scopes: ['read:verify-accounts'],
    handler: 'functions/verify-accounts/get.ts',
    table: 'read',
  },
  {
    id: 'VerifyAccountControl',
    method: 'POST',
    path: '/verify/accounts/{id}/control',
    scopes: ['write:verify-accounts'],
    handler: 'functions/verify-accounts/control.ts',
    table: 'readwrite',
  },
];

/** API Gateway route key, e.g. `POST /verify/accounts/{id}/control`. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/* ------------------------------------------------------------------------------------ */
/* Asynchronous side: the table stream, the queues and their workers, the schedules.     */
/* ------------------------------------------------------------------------------------ */

/** Queue settings shared by SQS (CDK) and the local in-process queues. */
export interface QueueSettings {
  /** PascalCase, for construct ids. */
  readonly name: string;
  /** How long a received message stays hidden; at least 6× the consumer's timeout (AWS advice). */
  readonly visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the queue's dead-letter queue. */
  readonly maxReceiveCount: number;
}

export const QUEUE_SETTINGS: Record<QueueId, QueueSettings> = {
  verification: { name: 'Verification', visibilityTimeoutSeconds: 180, maxReceiveCount: 5 },
  webhookEvents: { name: 'WebhookEvents', visibilityTimeoutSeconds: 180, maxReceiveCount: 8 },
};

/**
 * A stream filter in Lambda's event-filtering syntax, reduced to what the service needs:
 * the record's event name and the new image's `entity`. CDK turns it into the event source
 * mapping's FilterCriteria; the local stream poller applies the same pattern.
 */
export interface StreamFilter {
  readonly eventName: readonly ('INSERT' | 'MODIFY' | 'REMOVE')[];
  readonly entity: readonly string[];
}

/** The Lambda filter pattern of a stream filter (one FilterCriteria entry). */
export const streamFilterPattern = (filter: StreamFilter) => ({
  eventName: [...filter.eventName],
  dynamodb: { NewImage: { entity: { S: [...filter.entity] } } },
});

export type ConsumerSource =
  | {
      readonly kind: 'table-stream';
      readonly filters: readonly StreamFilter[];
      readonly batchSize: number;
      /** Retries of a failing batch before its records go to the on-failure destination. */
      readonly maxRetryAttempts: number;
    }
  | { readonly kind: 'queue'; readonly queue: QueueId; readonly batchSize: number }
  | {
      readonly kind: 'schedule';
      /** EventBridge cron fields (UTC). */
      readonly cron: { readonly minute: string; readonly hour: string };
      /** How often the local runtime runs it (it has no wall-clock schedule). */
      readonly localEveryMs: number;
    };

export interface ConsumerDefinition {
  readonly id: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly handler: string;
  readonly source: ConsumerSource;
  readonly table: TableAccess;
  readonly cipher?: CipherAccess;
  /** Queues it sends to (SendMessage grant and `<QUEUE>_URL` variable). */
  readonly sendsTo?: readonly QueueId[];
  /** Sends account-holder emails (SES grant when a sender is configured). */
  readonly sendsEmail?: boolean;
  readonly timeoutSeconds: number;
}

export const CONSUMERS: readonly ConsumerDefinition[] = [
  {
    id: 'StreamRouter',
    handler: 'functions/pipeline/stream-router.ts',
    source: {
      kind: 'table-stream',
      filters: [
        { eventName: ['INSERT', 'MODIFY'], entity: [ENTITY.verifyAccount] },
        { eventName: ['INSERT'], entity: [ENTITY.event] },
      ],
      batchSize: 50,
      maxRetryAttempts: 10,
    },
    table: 'readwrite',
    sendsTo: ['verification', 'webhookEvents'],
    timeoutSeconds: 30,
  },
  {
    id: 'VerificationWorker',
    handler: 'functions/pipeline/verification-worker.ts',
    source: { kind: 'queue', queue: 'verification', batchSize: 10 },
    table: 'readwrite',
    cipher: 'decrypt',
    sendsEmail: true,
    timeoutSeconds: 30,
  },
  {
    id: 'StatementCodeExpiry',
    handler: 'functions/pipeline/statement-code-expiry.ts',
    source: { kind: 'schedule', cron: { minute: '15', hour: '3' }, localEveryMs: 60_000 },
    table: 'readwrite',
    timeoutSeconds: 300,
  },
];
