import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { AlarmTopic } from '#lib/constructs/alarms';
import { ApiFunction } from '#lib/constructs/api-function';
import { type BankBinding, BankSecrets } from '#lib/constructs/bank-secrets';
import { CipherKey } from '#lib/constructs/cipher-key';
import { DataKey } from '#lib/constructs/data-key';
import { DataTable, writtenKinds } from '#lib/constructs/data-table';
import { type EmailSenderSettings, emailSenderFromContext } from '#lib/constructs/email-sender';
import { EventPipeline } from '#lib/constructs/event-pipeline';
import { HttpApi, type HttpApiProps } from '#lib/constructs/http-api';
import { Identity } from '#lib/constructs/identity';
import { type MonitoredFunction, ServiceAlarms } from '#lib/constructs/service-alarms';
import { ServiceDashboard } from '#lib/constructs/service-dashboard';
import { StorageKey } from '#lib/constructs/storage-key';
import { TENANT_RECORD_KEY_KINDS, TenantRecords } from '#lib/constructs/tenant-records';
import { apiLimitsFromContext, type RequestLimit } from '#lib/context/api-limits';
import { type BankSettings, bankSettingsFromContext, onRails } from '#lib/context/bank-provider';
import { type IdentificationSettings, identificationSettingsFromContext } from '#lib/context/identification';
import { type IdentityProps, identityPropsFromContext } from '#lib/context/identity';
import { type ScreeningListsSettings, screeningListsSettingsFromContext } from '#lib/context/screening-lists';
import {
  type ConsumerDefinition,
  dataKeysOf,
  deployedRoutes,
  isProviderSigned,
  type QueueSettings,
  type RouteDefinition,
  routeKey,
  STREAM_ROUTER,
  servedRoutes,
  tableAccessOfRoute,
  takesIdempotencyKey,
} from '#lib/service/index';
import { ENV } from '#shared/config';
import type { KeyKind } from '#shared/db/keys';
import type { QueueId } from '#shared/queue/message-queue';

/** The consumer whose code reads the tenant's KYC mode (`kycModeOf`), hence `DEFAULT_KYC_MODE`. */
const KYC_MODE_READER = 'IdentificationWorker';
/** The consumer that refreshes the screening lists from OFAC, hence `SCREENING_LISTS_URL` and its alarms. */
const LISTS_REFRESHER = 'ListsRefresh';

/** Repository root: handler paths in ROUTES and CONSUMERS are relative to it. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface VerifyServiceStackProps extends StackProps {
  /**
   * Who may call the API.
   * @default - read from CDK context (`partners`, `jwtIssuer`, `jwtAudience`,
   * `jwtScopePrefix`, `cognitoDomainPrefix`); see docs/deploy.md#context-keys
   */
  readonly identity?: IdentityProps;
  /**
   * The route table: one Lambda function and one API route per route, local-only routes
   * excepted (`deployedRoutes`).
   * @default - `servedRoutes` of the bank: ROUTES from lib/service/, and on real rails the
   * provider's notice routes (NOTICE_ROUTES)
   */
  readonly routes?: readonly RouteDefinition[];
  /**
   * Default-stage throttling of the HTTP API (all tenants together).
   * @default - read from CDK context (`apiThrottleRate`, `apiThrottleBurst`), else 50 requests/s, burst 100
   */
  readonly throttle?: Pick<HttpApiProps, 'throttleRateLimit' | 'throttleBurstLimit'>;
  /**
   * Each tenant's request rate and burst when its settings name none
   * (`TENANT_RATE_PER_SECOND`, `TENANT_BURST` on every API function).
   * @default - read from CDK context (`tenantRatePerSecond`, `tenantBurst`), else 50 requests/s, burst 100
   */
  readonly tenantLimit?: RequestLimit;
  /**
   * The asynchronous consumers, one Lambda function each.
   * @default CONSUMERS from lib/service/
   */
  readonly consumers?: readonly ConsumerDefinition[];
  /**
   * The work queues, one SQS queue (with its dead-letter queue) each.
   * @default QUEUE_SETTINGS from lib/service/
   */
  readonly queueSettings?: Readonly<Record<QueueId, QueueSettings>>;
  /**
   * Sender of account-holder emails; `null` for none.
   * @default - read from CDK context (`emailSender`, `emailIdentityArn`); none without it
   */
  readonly emailSender?: EmailSenderSettings | null;
  /**
   * Deployment-wide identification settings: the KYC mode of tenants without their own
   * (partners' `kycMode`) and the delay of the automatic identification retry.
   * @default - read from CDK context (`kycMode`, `identificationRetryDelaySeconds`); see
   * docs/deploy.md#context-keys
   */
  readonly identification?: IdentificationSettings;
  /**
   * Where the daily refresh downloads OFAC's lists, and how much one refresh may take off.
   * @default - read from CDK context (`screeningListsUrl`, `screeningListsMaxDropPercent`),
   * else OFAC's Sanctions List Service and 5 %; see docs/deploy.md#context-keys
   */
  readonly screeningLists?: ScreeningListsSettings;
  /**
   * The bank the rows with `bank` call: the sandbox bank, or a provider on real rails,
   * whose two secrets the stack then creates in Secrets Manager.
   * @default - read from CDK context (`bankProvider`, `increaseAccountId`,
   * `increaseEnvironment`), else the sandbox bank; see docs/deploy.md#real-rails-increase
   */
  readonly bank?: BankSettings;
}

/**
 * The whole service in one stack: the table and the key it and the queues are encrypted
 * with, the key for SSNs and tax ids, the digest and field keys, the issuer of partner tokens, an HTTP API with one
 * function per route of the route table, the event pipeline (queues, their dead-letter
 * queues and one function per consumer), alarms that all notify one SNS topic, and one
 * dashboard. Nothing carries a hard-coded physical name, so several stages fit in one
 * account.
 */
export class VerifyServiceStack extends Stack {
  /** Encrypts the table (and its stream) and the queues at rest. */
  readonly storageKey: StorageKey;
  readonly dataTable: DataTable;
  readonly cipherKey: CipherKey;
  /** The key of every digest of a secret or of PII, generated by KMS at the first deploy. */
  readonly digestKey: DataKey;
  /** The key that seals account numbers in stored items, generated by KMS at the first deploy. */
  readonly fieldKey: DataKey;
  readonly identity: Identity;
  /**
   * The alias records that map each partner client id to its tenant (partner name), and
   * the settings records of the partners that name a KYC mode.
   */
  readonly tenantRecords: TenantRecords;
  readonly httpApi: HttpApi;
  /** The function of each deployed route, by route id. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The topic every alarm notifies. */
  readonly alarms: AlarmTopic;
  /** Queues, consumers and their sources. */
  readonly pipeline: EventPipeline;
  /** Function, stream, API and application alarms (the dead-letter alarms sit beside their queues). */
  readonly serviceAlarms: ServiceAlarms;
  readonly dashboard: ServiceDashboard;
  /** The provider's API key and webhook secret, on real rails only. */
  readonly bankSecrets?: BankSecrets;

  constructor(scope: Construct, id: string, props: VerifyServiceStackProps = {}) {
    super(scope, id, props);

    this.storageKey = new StorageKey(this, 'StorageKey');
    this.dataTable = new DataTable(this, 'Data', { key: this.storageKey });
    this.cipherKey = new CipherKey(this, 'CipherKey');
    // The construct ids name the keys' resources: a new id would generate a new key (test/infra pins them).
    this.digestKey = new DataKey(this, 'DigestKey', {
      purpose: 'digest-key',
      cipherKey: this.cipherKey,
      projectRoot: PROJECT_ROOT,
    });
    this.fieldKey = new DataKey(this, 'FieldKey', {
      purpose: 'field-key',
      cipherKey: this.cipherKey,
      projectRoot: PROJECT_ROOT,
    });
    const dataKeys = { 'digest-key': this.digestKey, 'field-key': this.fieldKey };
    const identityProps = props.identity ?? identityPropsFromContext(this);
    this.identity = new Identity(this, 'Identity', identityProps);
    // The construct id keeps its first name: its resources' logical ids derive from it, and a
    // new id would replace each alias resource, whose delete (after the new one's put) removes
    // the very record the new one wrote, locking the partner out.
    this.tenantRecords = new TenantRecords(this, 'TenantAliases', {
      table: this.dataTable.table,
      tableKey: this.storageKey,
      aliases: this.identity.tenantAliases,
      settings: (identityProps.partners ?? []).flatMap(({ name, kycMode, rateLimit }) =>
        kycMode || rateLimit ? [{ tenant: name, kycMode, rateLimit }] : [],
      ),
    });
    const identification = props.identification ?? identificationSettingsFromContext(this);
    const screeningLists = props.screeningLists ?? screeningListsSettingsFromContext(this);
    const limits = apiLimitsFromContext(this);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      jwt: this.identity.jwt,
      throttleRateLimit: props.throttle?.throttleRateLimit ?? limits.stage.ratePerSecond,
      throttleBurstLimit: props.throttle?.throttleBurstLimit ?? limits.stage.burst,
    });
    const tenantLimit = props.tenantLimit ?? limits.tenant;
    const bankSettings = props.bank ?? bankSettingsFromContext(this);
    if (onRails(bankSettings))
      this.bankSecrets = new BankSecrets(this, 'BankSecrets', { provider: bankSettings.provider });
    const bank: BankBinding = { settings: bankSettings, secrets: this.bankSecrets };

    // The partner routes, and on real rails the provider's notice route.
    const routes = deployedRoutes(props.routes ?? servedRoutes(bankSettings.provider));
    const functions = new Map<string, ApiFunction>();
    for (const route of routes) {
      if (functions.has(route.id)) throw new Error(`route "${route.id}" is listed twice`);
      const fn = new ApiFunction(this, route.id, {
        entry: join(PROJECT_ROOT, route.handler),
        projectRoot: PROJECT_ROOT,
        description: routeKey(route),
        bundling: route.bundling,
        dataKeys: dataKeysOf(route).map((purpose) => dataKeys[purpose]),
        takesIdempotencyKey: takesIdempotencyKey(route),
        bank: route.bank ? bank : undefined,
      })
        .bindTable(this.dataTable, tableAccessOfRoute(route), { actsForOneTenant: route.crossTenant === undefined })
        .bindCipherKey(this.cipherKey, route.cipher);
      // Every partner route takes a token from its tenant's bucket (the HTTP middleware
      // stack); the provider's notices have no tenant and no token.
      if (!isProviderSigned(route)) {
        fn.addEnvironment(ENV.tenantRatePerSecond, String(tenantLimit.ratePerSecond));
        fn.addEnvironment(ENV.tenantBurst, String(tenantLimit.burst));
        // Handlers that read the token's scopes (the event log) strip the issuer's prefix.
        if (this.identity.jwt.scopePrefix) fn.addEnvironment(ENV.scopePrefix, this.identity.jwt.scopePrefix);
      }
      this.httpApi.addRoute(route, fn);
      functions.set(route.id, fn);
    }
    this.functions = functions;

    this.alarms = new AlarmTopic(this, 'Alarms');
    this.pipeline = new EventPipeline(this, 'Pipeline', {
      projectRoot: PROJECT_ROOT,
      dataTable: this.dataTable,
      cipherKey: this.cipherKey,
      dataKeys,
      alarms: this.alarms,
      consumers: props.consumers,
      queueSettings: props.queueSettings,
      emailSender: props.emailSender === undefined ? emailSenderFromContext(this) : (props.emailSender ?? undefined),
      bank,
      // Each setting goes to the one function whose code reads it (functions/shared/config.ts).
      consumerEnvironment: {
        [KYC_MODE_READER]: {
          [ENV.defaultKycMode]: identification.defaultKycMode ?? 'service',
          // The same consumer screens persons against the lists held in memory.
          ...(identification.screeningThreshold !== undefined && {
            [ENV.screeningThreshold]: String(identification.screeningThreshold),
          }),
        },
        [LISTS_REFRESHER]: {
          [ENV.screeningListsUrl]: screeningLists.url,
          ...(screeningLists.maxDropPercent !== undefined && {
            [ENV.screeningListsMaxDropPercent]: String(screeningLists.maxDropPercent),
          }),
        },
        // The stream rule schedules the retry: it sends the delayed identification message.
        ...(identification.retryDelaySeconds !== undefined && {
          [STREAM_ROUTER.id]: { [ENV.identificationRetryDelay]: String(identification.retryDelaySeconds) },
        }),
      },
    });
    // Routes that send to a queue (redelivery) are bound once the queues exist.
    for (const route of routes) {
      for (const queueId of route.sendsTo ?? []) {
        const workQueue = this.pipeline.queues.get(queueId);
        if (!workQueue) throw new Error(`route "${route.id}" sends to unknown queue "${queueId}"`);
        functions.get(route.id)?.sendsTo(queueId, workQueue);
      }
    }

    // Tenants with split list partitions: every function that writes or reads a list must agree.
    const listShards = Object.fromEntries(
      (identityProps.partners ?? []).flatMap(({ name, listShards }) => (listShards ? [[name, listShards]] : [])),
    );
    if (Object.keys(listShards).length > 0) {
      for (const fn of [...functions.values(), ...this.pipeline.consumers.values()]) {
        fn.addEnvironment(ENV.tenantListShards, JSON.stringify(listShards));
      }
    }

    // Every role of the stack is denied writes to aliases, settings and screening entries
    // unless its grant writes them: the tenant-records provider its kinds, each function
    // what its row writes (docs/data-model.md#who-writes-which-keys).
    const writers = new Map<Role, readonly KeyKind[]>();
    for (const fn of [...functions.values(), ...this.pipeline.consumers.values()]) {
      writers.set(fn.role, writtenKinds(fn.tableAccess));
      if (fn.tenantRole) writers.set(fn.tenantRole, writtenKinds(fn.tenantAccess));
    }
    if (this.tenantRecords.role) writers.set(this.tenantRecords.role, TENANT_RECORD_KEY_KINDS);
    this.dataTable.guardWrites(this, writers);

    const monitored: MonitoredFunction[] = [
      ...[...functions].map(([id, fn]) => ({ id, fn, kind: 'api' as const })),
      ...[...this.pipeline.consumers].map(([id, fn]) => ({ id, fn, kind: fn.consumer.source.kind })),
    ];
    this.serviceAlarms = new ServiceAlarms(this, 'ServiceAlarms', {
      alarms: this.alarms,
      httpApi: this.httpApi,
      functions: monitored,
      listsRefresh: LISTS_REFRESHER,
    });
    const workQueues = [...this.pipeline.queues.values()];
    const deadLetterStores = [
      ...workQueues.map((q) => [`${q.settings.name} DLQ`, q.deadLetters] as const),
      ...[...this.pipeline.onFailure].map(([id, store]) => [`${id} on-failure`, store] as const),
      ...[...this.pipeline.scheduleDeadLetters].map(([id, store]) => [`${id} schedule DLQ`, store] as const),
    ];
    const {
      functionErrors,
      functionThrottles,
      iteratorAge,
      api5xxRate,
      webhookFailureRate,
      webhookExhausted,
      listsRefreshFailed,
      listsRefreshStale,
    } = this.serviceAlarms;
    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      httpApi: this.httpApi,
      functions: monitored,
      workQueues: new Map(workQueues.map((q) => [q.settings.name, q.queue])),
      deadLetterQueues: new Map(deadLetterStores.map(([name, store]) => [name, store.queue])),
      serviceAlarms: this.serviceAlarms,
      alarms: [
        api5xxRate,
        webhookFailureRate,
        webhookExhausted,
        ...(listsRefreshFailed && listsRefreshStale ? [listsRefreshFailed, listsRefreshStale] : []),
        ...iteratorAge.values(),
        ...deadLetterStores.map(([, store]) => store.alarm),
        ...functionErrors.values(),
        ...functionThrottles.values(),
      ],
    });

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description:
        'SNS topic of every alarm (dead letters, function errors and throttles, stream lag, API 5xx, webhook failures): subscribe to it',
    });
    const noticeRoute = routes.find(isProviderSigned);
    if (noticeRoute && this.bankSecrets) {
      new CfnOutput(this, 'BankNoticeUrl', {
        value: `${this.httpApi.url}${noticeRoute.path.slice(1)}`,
        description: `Register this URL as the ${bankSettings.provider} webhook endpoint (docs/deploy.md#real-rails-increase)`,
      });
      new CfnOutput(this, 'BankApiKeySecretArn', {
        value: this.bankSecrets.apiKey.secretArn,
        description: `Set the ${bankSettings.provider} API key here: aws secretsmanager put-secret-value`,
      });
      new CfnOutput(this, 'BankWebhookSecretArn', {
        value: this.bankSecrets.webhookSecret.secretArn,
        description: `Set the ${bankSettings.provider} webhook secret here: aws secretsmanager put-secret-value`,
      });
    }
    new CfnOutput(this, 'JwtIssuer', { value: this.identity.jwt.issuer, description: 'Issuer the API trusts' });
    if (this.identity.tokenUrl) {
      new CfnOutput(this, 'TokenUrl', {
        value: this.identity.tokenUrl,
        description: 'OAuth token endpoint (client-credentials grant)',
      });
    }
    if (this.identity.userPool) {
      new CfnOutput(this, 'UserPoolId', { value: this.identity.userPool.userPoolId });
    }
    for (const [name, client] of this.identity.clients) {
      new CfnOutput(this, `ClientId${name.replace(/[^A-Za-z0-9]/g, '')}`, {
        value: client.userPoolClientId,
        description: `App client id of partner "${name}" (secret: aws cognito-idp describe-user-pool-client)`,
      });
    }
    for (const [name, client] of this.identity.operatorClients) {
      new CfnOutput(this, `OperatorClientId${name.replace(/[^A-Za-z0-9]/g, '')}`, {
        value: client.userPoolClientId,
        description: `App client id of operator "${name}": review:screening only (secret: aws cognito-idp describe-user-pool-client)`,
      });
    }
  }
}
