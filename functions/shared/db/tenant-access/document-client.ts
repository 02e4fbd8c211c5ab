import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TranslateConfig } from '@aws-sdk/lib-dynamodb';
import { refuseAbandonedWork } from '#shared/abandoned-work';
import { ENV, optionalEnv } from '#shared/config';
import { actingTenant } from '#shared/tenant-scope';
import { sendWithinTime } from '#shared/time-budget';
import { type DocumentCommand, requestsOf, type TableRequest } from '../command-requests';
import { isTenantKind, kindOfKey } from '../key-kinds';
import { TenantCredentials } from './credentials';
import { assumeWithSts } from './sts';

/**
 * Whether a command's requests are about a tenant's records: a key, or a queried index
 * partition, of a kind each tenant owns (`KEY_OWNER`; an index partition it cannot read
 * counts as one). Requests about records of no tenant (a client's alias, screening entries
 * and their index partitions) are not.
 */
export const asksForTenantRecords = (requests: readonly TableRequest[]): boolean =>
  requests.some((request) => {
    const key = request.index === undefined ? request.pk : request.partition;
    if (key === undefined) return request.index !== undefined;
    const kind = kindOfKey(key);
    return kind !== undefined && isTenantKind(kind);
  });

/**
 * Whether a command goes under the tenant's credentials: the code acts for a tenant and the
 * command is about a tenant's records. Everything else goes under the function's own role.
 */
export const sendsAsTenant = (command: DocumentCommand, tenant: string | undefined): boolean =>
  tenant !== undefined && asksForTenantRecords(requestsOf(command));

export interface TenantScopedOptions {
  readonly translateConfig?: TranslateConfig;
  /** Where tenants' credentials come from (default: STS, `assumeWithSts`). */
  readonly credentials?: TenantCredentials;
}

/**
 * The document client of every repository. In a function with a tenant role
 * (`TENANT_ROLE_ARN`), a command about a tenant's records sent while the code acts for that
 * tenant (#shared/tenant-scope) goes under that tenant's credentials
 * (`TenantCredentials`), whose policy reaches that tenant's keys alone: a key built from
 * another tenant meets AccessDenied instead of another partner's data
 * (docs/threat-model.md#tenant-isolation). Everything else goes under the function's own
 * role. The tenants' clients share the own client's connections, so a new tenant costs one
 * AssumeRole and no new connection.
 */
export class TenantScopedDocumentClient extends DynamoDBDocumentClient {
  private readonly tenantCredentials: TenantCredentials;
  private readonly tenantClients = new Map<string, DynamoDBDocumentClient>();
  private readonly uses: ((client: DynamoDBDocumentClient) => void)[] = [];

  constructor(
    private readonly own: DynamoDBClient,
    private readonly options: TenantScopedOptions = {},
  ) {
    super(own, options.translateConfig);
    this.tenantCredentials = options.credentials ?? new TenantCredentials(assumeWithSts);
  }

  /**
   * Sends under the credentials the command's records call for, within the running
   * request's time (#shared/time-budget: the SDK's retries and each attempt end when it
   * runs out), and never for a request already answered (#shared/abandoned-work).
   */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's overloads of send, passed through unchanged
  override send(command: any, ...rest: any[]): any {
    refuseAbandonedWork(command.constructor.name);
    const roleArn = optionalEnv(ENV.tenantRoleArn);
    const tenant = actingTenant();
    const client =
      roleArn === undefined || !sendsAsTenant(command, tenant) ? undefined : this.clientFor(roleArn, tenant as string);
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const send = (...args: any[]) => (client ? client.send(command, ...args) : super.send(command, ...args));
    // The callback forms (which the service does not use) go unbounded.
    if (rest.some((arg) => typeof arg === 'function')) return send(...rest);
    return sendWithinTime(command.constructor.name, rest[0], (options) => send(options));
  }

  /**
   * Applies `use` to every client commands go through, the own and each tenant's, now and
   * as tenants' clients are made: a middleware added to one (the bench's metering) then
   * sees every command.
   */
  everyClient(use: (client: DynamoDBDocumentClient) => void): void {
    this.uses.push(use);
    use(this);
    for (const client of this.tenantClients.values()) use(client);
  }

  /** The tenant's client: one per role and tenant, as many as sessions are kept. */
  private clientFor(roleArn: string, tenant: string): DynamoDBDocumentClient {
    const key = `${roleArn} ${tenant}`;
    let client = this.tenantClients.get(key);
    if (client) {
      // The most recently used goes last, the first to go is the least recently used.
      this.tenantClients.delete(key);
      this.tenantClients.set(key, client);
    } else {
      client = DynamoDBDocumentClient.from(
        new DynamoDBClient({
          // The own client's connections and settings; only the credentials differ.
          requestHandler: this.own.config.requestHandler,
          maxAttempts: this.own.config.maxAttempts,
          credentials: () => this.tenantCredentials.credentials(roleArn, tenant),
        }),
        this.options.translateConfig,
      );
      for (const use of this.uses) use(client);
      this.tenantClients.set(key, client);
      // As bounded as the sessions: a tenant pushed out is built again on its next call.
      if (this.tenantClients.size > this.tenantCredentials.capacity) {
        this.tenantClients.delete(this.tenantClients.keys().next().value as string);
      }
    }
    return client;
  }
}
