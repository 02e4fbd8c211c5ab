import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';
import { refreshLists } from '#functions/screening/refresh-lists';
import { REPO_ROOT } from '#lib/repo-root';
import { CONSUMERS, servedRoutes } from '#lib/service/index';
import { ENV } from '#shared/config';
import { setDependencies } from '#shared/dependencies';
import { Availability } from './availability';
import { LOCAL_REGION } from './aws-account';
import { INCREASE_FAKE, startBankOnFake } from './bank-on-fake';
import { consoleEndpoints } from './console/console-endpoints';
import { deadLetterEndpoints } from './dead-letters/dead-letter-endpoints';
import { redriveHint, replayHint, startupNotices } from './dead-letters/hints';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local';
import { startRuntimeFaults } from './faults/fault-injection';
import { startHttpGateway } from './gateway/http-gateway';
import { createJwtAuthorizer } from './gateway/jwt-authorizer';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, LocalIssuer } from './gateway/jwt-issuer';
import type { LocalEndpoint } from './gateway/local-endpoints';
import { tokenEndpoint } from './gateway/token-endpoint';
import { configureHandlerEnvironment, localCipherKey, localDigestKey, localFieldKey } from './handler-environment';
import { startTenantAccessStandIns } from './iam/tenant-access-stand-ins';
import { PLAID_FAKE, startIdentityOnFake } from './identity-on-fake';
import { LambdaInvoker } from './lambda-invoker';
import { DEFAULT_PORT } from './local-address';
import type { LocalRuntime } from './local-runtime';
import { consoleLog, logLevelFromEnv } from './log';
import { openApiEndpoint } from './openapi-endpoint';
import { registerLocalOperators } from './operators';
import { createLocalPipeline, type LocalPipeline } from './pipeline/local-pipeline';
import type { LocalRuntimeOptions } from './runtime-options';
import { stateDir } from './state-dir';
import { ensureTable } from './table';

export type { LocalRuntime } from './local-runtime';
export type { LocalRuntimeOptions } from './runtime-options';

export { DEFAULT_PORT };

/** What `npm start` serves beside the routes, without a token (lib/local/gateway/local-endpoints.ts). */
function localEndpoints(issuer: LocalIssuer, pipeline: LocalPipeline): LocalEndpoint[] {
  return [tokenEndpoint(issuer), ...consoleEndpoints(), openApiEndpoint(), ...deadLetterEndpoints(pipeline)];
}
export const DEFAULT_TABLE_NAME = 'verify-service';

/**
 * The local runtime: the very handler modules of the route table, behind a stand-in for
 * API Gateway (lib/local/gateway/), and of the consumer list, fed by the table's stream,
 * in-process queues and timers (lib/local/pipeline/), all on AWS's DynamoDB Local.
 * Handlers get their configuration only through the environment, exactly as in Lambda, so
 * it is set before any handler is imported. Handlers read one process-wide environment, so run one runtime
 * per process at a time.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const log = options.log ?? consoleLog(logLevelFromEnv(process.env[ENV.logLevel]));
  const tableName = options.tableName ?? DEFAULT_TABLE_NAME;
  // Undone in reverse on stop(), or at once if start-up fails half way.
  const teardown: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const step of teardown.splice(0).reverse()) await step();
  };

  try {
    let dynamoEndpoint = options.dynamoEndpoint;
    let dynamo: DynamoDbLocal | undefined;
    if (!dynamoEndpoint) {
      const onLost =
        options.onDatabaseLost ??
        (() => {
          void stop().finally(() => process.exit(1));
        });
      dynamo = await startDynamoDbLocal({ dataDir: options.dataDir, log, onLost });
      teardown.push(() => dynamo?.stop());
      dynamoEndpoint = dynamo.endpoint;
    }
    // A database the runtime did not start is never marked down: its owner watches it.
    const availability = dynamo?.availability ?? new Availability();

    const tenantAccess = await startTenantAccessStandIns({ upstream: dynamoEndpoint, tableName, log });
    teardown.push(() => tenantAccess.stop());

    // Faults go in front of IAM: a throttled call never reached DynamoDB, so IAM never saw it.
    const iamEndpoint = options.enforceTenantRoles === false ? dynamoEndpoint : tenantAccess.dynamoEndpoint;
    const faults =
      options.faults === undefined ? undefined : await startRuntimeFaults(options.faults, iamEndpoint, log);
    if (faults) teardown.push(() => faults.stop());

    configureHandlerEnvironment({
      // Only the handlers go through the proxies (faults, then IAM); the runtime's own clients below do not.
      dynamoEndpoint: faults?.handlerDynamoEndpoint ?? iamEndpoint,
      stsEndpoint: tenantAccess.stsEndpoint,
      tableName,
      cipherKey: await localCipherKey(options.dataDir),
      digestKey: await localDigestKey(options.dataDir),
      fieldKey: await localFieldKey(options.dataDir),
    });

    const increaseFake = options.increaseFake ?? process.env[ENV.bankProvider] === INCREASE_FAKE;
    // With DATA_DIR the fake's entries are kept beside the accounts: after a restart,
    // BankReturnWindows still finds the prenotifications it asks about.
    const fakeState = options.dataDir && { stateFile: join(stateDir(options.dataDir), 'increase-fake.json') };
    const bankOnFake = increaseFake
      ? await startBankOnFake({ ...fakeState, ...(increaseFake === true ? {} : increaseFake) }, log)
      : undefined;
    if (bankOnFake) teardown.push(() => bankOnFake.stop());
    const plaidFake = options.plaidFake ?? process.env[ENV.identityVendor] === PLAID_FAKE;
    const vendorOnFake = plaidFake ? await startIdentityOnFake(plaidFake === true ? {} : plaidFake, log) : undefined;
    if (vendorOnFake) teardown.push(() => vendorOnFake.stop());

    // A provider's notice route only when its variable names a real one (set by the fakes above, too), as in a stack.
    const env = (name: string) => process.env[name] || 'sandbox';
    const routes = options.routes ?? servedRoutes(env(ENV.bankProvider), env(ENV.identityVendor));
    const consumers = options.consumers ?? CONSUMERS;
    // Before any function runs: every row that acts for one tenant gets its tenant role, as in the stack.
    tenantAccess.registerRoles([...routes, ...consumers]);

    const client = new DynamoDBClient({ endpoint: dynamoEndpoint });
    teardown.push(() => client.destroy());
    const table = await ensureTable(client, tableName);
    // As the stack's alias records register context `operators`: only these review screening hits.
    await registerLocalOperators(DynamoDBDocumentClient.from(client), tableName);

    const issuer = options.issuer ?? (await LocalIssuer.persisted(stateDir(options.dataDir)));
    const authorizer = createJwtAuthorizer({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], jwks: issuer.jwks });
    const invoker = options.invoker ?? new LambdaInvoker(options.functionTimeoutMs, LOCAL_REGION);

    // The ways to redrive and replay name the gateway's URL, known once it listens (below).
    let servedAt: string | undefined;
    const pipeline = createLocalPipeline({
      consumers,
      timings: options.pipelineTimings,
      outboxDir: options.outboxDir ?? join(stateDir(options.dataDir), 'outbox'),
      checkpointDir: options.dataDir && join(stateDir(options.dataDir), 'stream-checkpoints'),
      queueJournalPath: options.dataDir && join(stateDir(options.dataDir), 'queues.jsonl'),
      region: LOCAL_REGION,
      log,
      redriveHint: (queue) => servedAt && redriveHint(queue, servedAt),
      replayHint: (startSequenceNumber) => servedAt && replayHint(startSequenceNumber, servedAt),
    });
    // Once the workers that send and receive have stopped.
    teardown.push(() => pipeline.queues.close());
    // After configureHandlerEnvironment, whose reset would drop them; removed once the
    // workers that use them have stopped.
    setDependencies({ queue: pipeline.queues, notifier: pipeline.outbox });
    teardown.push(() => setDependencies({ queue: undefined, notifier: undefined }));

    for (const worker of [...(options.workers ?? []), ...pipeline.workers]) {
      await worker.start({ tableName, table, dynamoEndpoint, availability, invoker, log });
      teardown.push(() => worker.stop());
      log('debug', `worker ${worker.name} started`);
    }

    // The folder is what the ListsRefresh schedule re-reads, as the deployed one downloads OFAC's files.
    delete process.env[ENV.screeningListsDir];
    if (options.screeningLists !== false) {
      const dir = resolve(REPO_ROOT, options.screeningLists ?? SANDBOX_LISTS_DIR);
      // The folder named at start is loaded whatever the checks say (a developer's choice, not
      // a download); only what differs from the table is written.
      const outcome = await refreshLists({ dir }, { force: true });
      process.env[ENV.screeningListsDir] = dir;
      teardown.push(() => {
        delete process.env[ENV.screeningListsDir];
      });
      log('debug', `screening lists from ${dir}`, { ...outcome });
    }

    const gateway = await startHttpGateway({
      routes,
      endpoints: localEndpoints(issuer, pipeline),
      authorizer,
      invoker,
      port: options.port ?? DEFAULT_PORT,
      integrationTimeoutMs: options.integrationTimeoutMs,
      log,
    });
    teardown.push(() => gateway.close());
    bankOnFake?.noticesTo(`${gateway.url}/bank/notices`);
    vendorOnFake?.noticesTo(`${gateway.url}/identity/notices`);
    servedAt = gateway.url;
    // Dead letters of an earlier run (DATA_DIR) would otherwise wait unseen: no alarm watches them here.
    for (const notice of startupNotices(pipeline.queues.deadLetters(), gateway.url)) log('warn', notice);
    faults?.arm();

    return {
      url: gateway.url,
      port: gateway.port,
      tableName,
      dynamoEndpoint,
      ...(dynamo && { dynamoDbLocal: dynamo }),
      issuer,
      mintToken: (tenant, scopes) => issuer.mint({ tenant, scopes }),
      queues: pipeline.queues,
      streamFailures: pipeline.streamFailures,
      replayStreamFailure: pipeline.replayStreamFailure,
      outbox: pipeline.outbox,
      ...(bankOnFake && { increaseFake: bankOnFake.fake }),
      ...(vendorOnFake && { plaidFake: vendorOnFake.fake }),
      ...(faults && { faults: faults.injection }),
      tenantAccess: tenantAccess.view,
      runSchedule: pipeline.runSchedule,
      settle: pipeline.settle,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
