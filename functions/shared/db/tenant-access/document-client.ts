import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TranslateConfig } from '@aws-sdk/lib-dynamodb';
import { ENV, optionalEnv } from '#shared/config';
import { actingTenant } from '#shared/tenant-scope';
import { type DocumentCommand, requestsOf } from '../command-requests';
import { isTenantKind, kindOfKey } from '../key-kinds';
import { TenantCredentials } from './credentials';
import { assumeWithSts } from './sts';

/**
 * Whether a command is about a tenant's records and so goes under the tenant's credentials:
 * it names a key of a kind each tenant owns (`KEY_OWNER`), or queries an index (a function
 * that acts for one tenant queries only that tenant's index partitions). A command on
 * records of no tenant (a client's alias, screening entries) goes under the function's own
 * role. Undefined tenant: the code acts for none, and every command goes under the own role.
 */
export function sendsAsTenant(command: DocumentCommand, tenant: string | undefined): boolean {
  if (tenant === undefined) return false;
  return requestsOf(command).some((request) => {
    if (request.index !== undefined) return true;
    const kind = request.pk === undefined ? undefined : kindOfKey(request.pk);
    return kind !== undefined && isTenantKind(kind);
  });
}

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

  constructor(
    private readonly own: DynamoDBClient,
    private readonly options: TenantScopedOptions = {},
  ) {
    super(own, options.translateConfig);
    this.tenantCredentials = options.credentials ?? new TenantCredentials(assumeWithSts);
  }

  // biome-ignore lint/suspicious/noExplicitAny: the SDK's overloads of send, passed through unchanged
  override send(command: any, ...rest: any[]): any {
    const roleArn = optionalEnv(ENV.tenantRoleArn);
    const tenant = actingTenant();
    if (roleArn === undefined || !sendsAsTenant(command, tenant)) return super.send(command, ...rest);
    return this.clientFor(roleArn, tenant as string).send(command, ...rest);
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
      this.tenantClients.set(key, client);
      // As bounded as the sessions: a tenant pushed out is built again on its next call.
      if (this.tenantClients.size > this.tenantCredentials.capacity) {
        this.tenantClients.delete(this.tenantClients.keys().next().value as string);
      }
    }
    return client;
  }
}
