import type { BankSecretName } from '#shared/bank/rails-secrets';
import type { CipherPurpose } from '#shared/cipher/cipher';
import type { DataKeyPurpose } from '#shared/data-key/index';
import type { KeyKind } from '#shared/db/key-kinds';
import type { IndexName, TableAction } from '#shared/db/schema';
import type { QueueId } from '#shared/queue/message-queue';
import type { ServiceScope } from '#shared/scopes';

// The vocabulary of the service description: a route, a consumer, a queue, and what each
// function may do with the table. `lib/service/<area>.ts` files describe one area each
// in these terms; `lib/service/index.ts` joins them. The CDK stack and the local runtime
// are both built from the joined description.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Exactly what a function's own code asks of the table: the IAM grant is derived from
 * this alone (plus, for routes, what the HTTP middleware stack asks, confined to its own
 * records; see `tableAccessOfRoute`), and test/infra pins it per function. A row whose
 * actions reach records of different kinds with different actions (reads screening
 * entries, writes only tenant data) gives one access per kind (`RowTableAccess`).
 */
export interface TableAccess {
  /**
   * DynamoDB actions it calls on the table itself (transactions: the action of each
   * item); `Query` here is a query of the table's own keys.
   */
  readonly actions: readonly TableAction[];
  /**
   * Indexes it queries: `dynamodb:Query` on exactly these indexes, not confined by key: an
   * index's partition keys are not the table's (`PSCREEN#<shard>`, the persons of every
   * tenant the re-screens walk, crosses tenants by design; so do `STATEMENT_CODE_SENT#<shard>`
   * and `SCREEN#<list>#LISTINGS`).
   */
  readonly indexes?: readonly IndexName[];
  /**
   * The kinds of record the actions reach (`KEY_PREFIX` in functions/shared/db/keys.ts):
   * the grant is confined to their partition keys (`dynamodb:LeadingKeys`, `<prefix>*`)
   * and reaches no other item. Required whenever `actions` names any: the stack refuses
   * (at synth) an item action on the whole table, and the drift test fails a function that
   * sends a key of a kind its row does not name.
   */
  readonly leadingKeys?: readonly KeyKind[];
}

/** A row's table access: one, or one per kind of record when actions differ by kind. */
export type RowTableAccess = TableAccess | readonly TableAccess[];

/**
 * What a function's own code encrypts and decrypts under the cipher key, by purpose (the
 * `purpose` of the encryption context, `CipherPurpose`): each operation is granted only
 * under a `kms:EncryptionContext:purpose` condition naming exactly these. The data keys
 * are not among them: a row asks for them with `digestKey` and `fieldKey`.
 */
export interface CipherAccess {
  readonly encrypt?: readonly RecordPurpose[];
  readonly decrypt?: readonly RecordPurpose[];
}

/** The purposes of values stored in records (SSNs, tax ids, webhook secrets); the data keys are asked for apart. */
export type RecordPurpose = Exclude<CipherPurpose, DataKeyPurpose>;

/**
 * What a function's own code asks of the bank (functions/shared/bank/): `BANK_PROVIDER`
 * and, on real rails, the provider's settings and the secrets it reads, no other's.
 */
export interface BankAccess {
  /**
   * The secrets its code reads on rails: `apiKey` for any call to the provider (every row
   * that calls the bank), `webhookSecret` to check a notice's signature (the notice route
   * only). Each one's ARN, `secretsmanager:GetSecretValue` on it, and a place among the
   * roles its resource policy lets read it (lib/constructs/bank-secrets.ts).
   */
  readonly secrets: readonly BankSecretName[];
}

/** Per-function bundling needs beyond the house defaults. */
export interface FunctionBundling {
  /**
   * Data files the function reads at run time (e.g. a screening list), relative to the
   * repository root; copied beside the bundle under the same relative path.
   */
  readonly files?: readonly string[];
}

export interface RouteDefinition {
  /** Stable PascalCase name: construct ids, function names and log fields derive from it. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway route path, with `{param}` placeholders. */
  readonly path: string;
  /**
   * Who may call it. `jwt` (every partner and operator route): API Gateway's JWT
   * authorizer, then the HTTP stack's tenant, rate limit and idempotency. `provider-signature`
   * (the bank provider's notices, `noticeRoutes` only): no authorizer at all, since the
   * provider cannot hold a token; its handler checks the provider's signature on every
   * request and refuses the rest (`noticeHandler`).
   * @default 'jwt'
   */
  readonly auth?: 'jwt' | 'provider-signature';
  /**
   * OAuth scopes of the route (none for a `provider-signature` route). Like API Gateway's JWT authorizer, a token must carry at
   * least ONE of them, never all. Most routes name one; the event log's name every area's
   * read scope and their handlers narrow what a token sees by the scopes it holds
   * (`HandlerRequest.scopes`). An operator route names an operator scope, which no partner
   * holds (`OPERATOR_SCOPES`).
   */
  readonly scopes: readonly ServiceScope[];
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly handler: string;
  readonly table: RowTableAccess;
  readonly cipher?: CipherAccess;
  /**
   * Its handler digests a secret or PII (functions/shared/digest/): an account number, a
   * customer reference, a statement code. The HTTP stack's own need (the idempotency
   * record on IDEMPOTENT_METHODS) is added by `digestKeyOfRoute`.
   */
  readonly digestKey?: boolean;
  /**
   * Its handler stores or reads an account number (functions/shared/field-cipher/): an
   * account item, an event that carries an account, or an idempotency record replaying one.
   */
  readonly fieldKey?: boolean;
  /** Queues its handler sends to (SendMessage grant and `<QUEUE>_URL` variable). */
  readonly sendsTo?: readonly QueueId[];
  /**
   * A list: it reads and writes list positions (cursors and bookmarks), granted apart from
   * `table` and confined to their keys (`LIST_POSITION_TABLE_ACCESS`).
   */
  readonly listPositions?: boolean;
  /** Served by the local runtime only (sandbox administration); never deployed. */
  readonly localOnly?: boolean;
  /** Calls the bank (functions/shared/bank/), reading these of its secrets on real rails (`BankAccess`). */
  readonly bank?: BankAccess;
  /**
   * Why its code reaches the records of many tenants where it acts for none, or for other
   * tenants than the one it acts for (an index partition that spans tenants, an operator's
   * view of every tenant): the tests then let its commands outside a piece of work of one
   * tenant (`actingFor`, #shared/tenant-scope) cross tenants, and hold it to crossing in
   * some test (test/support/tenant-check.ts). A function that can name the tenant of each
   * piece of work acts for it instead, and declares nothing.
   */
  readonly crossTenant?: string;
  readonly bundling?: FunctionBundling;
}

/** Queue settings shared by SQS (CDK) and the local in-process queues. */
export interface QueueSettings {
  /** PascalCase, for construct ids. */
  readonly name: string;
  /** How long a received message stays hidden; at least 6× the consumer's timeout (AWS advice). */
  readonly visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the queue's dead-letter queue. */
  readonly maxReceiveCount: number;
}

/**
 * A stream filter in Lambda's event-filtering syntax, reduced to what the service needs:
 * the record's event name and the new image's `entity`. CDK turns it into the event source
 * mapping's FilterCriteria; the local stream poller applies the same pattern.
 */
export interface StreamFilter {
  readonly eventName: readonly ('INSERT' | 'MODIFY' | 'REMOVE')[];
  readonly entity: readonly string[];
}

export type ConsumerSource =
  | {
      readonly kind: 'table-stream';
      readonly filters: readonly StreamFilter[];
      readonly batchSize: number;
      /** Retries of a failing batch before its records go to the on-failure destination. */
      readonly maxRetryAttempts: number;
      /**
       * Concurrent batches per shard (Lambda's ParallelizationFactor, 1–10): records are
       * split among them by partition key, so a key's records keep their stream order
       * while other keys' records run beside them.
       * @default 1
       */
      readonly parallelizationFactor?: number;
    }
  | {
      readonly kind: 'queue';
      readonly queue: QueueId;
      readonly batchSize: number;
      /**
       * At most this many concurrent invocations (Lambda's SQS `maxConcurrency`, 2–1000), so
       * a burst on this queue cannot take the account's whole concurrency.
       * @default - no limit
       */
      readonly maxConcurrency?: number;
    }
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
  readonly table: RowTableAccess;
  readonly cipher?: CipherAccess;
  /** It digests a secret or PII (functions/shared/digest/), e.g. a statement code. */
  readonly digestKey?: boolean;
  /** It stores or reads an account number (functions/shared/field-cipher/): an account item or an event carrying one. */
  readonly fieldKey?: boolean;
  /** Queues it sends to (SendMessage grant and `<QUEUE>_URL` variable). */
  readonly sendsTo?: readonly QueueId[];
  /** Sends account-holder emails (SES grant when a sender is configured). */
  readonly sendsEmail?: boolean;
  /** Calls the bank: as a route's `bank`. */
  readonly bank?: BankAccess;
  /** Its code crosses tenants: as a route's `crossTenant`. */
  readonly crossTenant?: string;
  readonly timeoutSeconds: number;
  readonly bundling?: FunctionBundling;
}

/**
 * What an area's stream rules (functions/<area>/stream-rules.ts) need from the stream
 * router: the changes to hand them, and what performing their actions asks of the table
 * and the queues. The router's own row is the union over every area.
 */
export interface StreamRulesDefinition {
  readonly filters: readonly StreamFilter[];
  readonly table: RowTableAccess;
  readonly sendsTo?: readonly QueueId[];
  /** Its rules read an account number from an image, or the events they record carry one. */
  readonly fieldKey?: boolean;
}

/** One area of the service (verify accounts, events, …): everything it adds. */
export interface ServiceArea {
  /** The partner (and operator) API: every route behind the JWT authorizer. */
  readonly routes: readonly RouteDefinition[];
  /**
   * Routes the bank provider calls with its signed notices (`auth: 'provider-signature'`,
   * `bank` reading the webhook secret): deployed, and served locally, on real rails only
   * (`servedRoutes`). Not partner routes: no scopes, no tenant, not in the OpenAPI document.
   */
  readonly noticeRoutes?: readonly RouteDefinition[];
  readonly consumers: readonly ConsumerDefinition[];
  readonly queues: Partial<Readonly<Record<QueueId, QueueSettings>>>;
  readonly streamRules?: StreamRulesDefinition;
}
