import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { KYC_MODES, type KycMode } from '#domain/person';
import { type BucketPolicy, isBucketPolicy } from '#domain/token-bucket';
import { ENV, optionalEnv } from '#shared/config';
import { ENTITY, keys } from '../keys';

/** What a client id's alias record says: the tenant it acts for, and whether it is one of the service's operators. */
export interface ClientAlias {
  readonly tenant: string;
  /**
   * Marked so by the stack for context `operators` alone (docs/deploy.md#operators): only
   * such a client may review screening hits, whatever scopes its token holds.
   */
  readonly operator: boolean;
}

/**
 * A tenant may own several OAuth client ids (credential rotation): an alias record maps a
 * client id to its tenant, and only a client id with one acts for a tenant
 * (docs/api.md#authentication-and-tenants). An operator's alias maps it to its own name and
 * marks it `operator`.
 */
export class TenantRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The client id's alias record: its tenant, and whether it marks an operator; undefined without one. */
  async aliasOf(clientId: string): Promise<ClientAlias | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.tenantAlias(clientId) }));
    const tenant = out.Item?.tenant;
    // Only the boolean true marks an operator: anything else written there is no mark.
    return typeof tenant === 'string' && tenant !== '' ? { tenant, operator: out.Item?.operator === true } : undefined;
  }

  /**
   * Who runs identification for the tenant (docs/api.md#identification): its own setting,
   * fixed at onboarding, else the deployment's default (`DEFAULT_KYC_MODE`, else `service`).
   */
  async kycModeOf(tenant: string): Promise<KycMode> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.tenantSettings(tenant) }));
    return asKycMode(out.Item?.kyc_mode) ?? asKycMode(optionalEnv(ENV.defaultKycMode)) ?? 'service';
  }

  /**
   * The tenant's request rate (docs/api.md#rate-limits): its own `rate_per_second` and
   * `burst` when its settings have both, else the deployment's (`TENANT_RATE_PER_SECOND`,
   * `TENANT_BURST`; 50 and 100, the API stage's own defaults).
   */
  async ratePolicyOf(tenant: string): Promise<BucketPolicy> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.tenantSettings(tenant) }));
    const own = { ratePerSecond: out.Item?.rate_per_second, burst: out.Item?.burst };
    if (isBucketPolicy(own)) return own;
    const fallback = {
      ratePerSecond: Number(optionalEnv(ENV.tenantRatePerSecond) ?? 50),
      burst: Number(optionalEnv(ENV.tenantBurst) ?? 100),
    };
    return isBucketPolicy(fallback) ? fallback : { ratePerSecond: 50, burst: 100 };
  }

  async putSettings(
    tenant: string,
    settings: { kyc_mode?: KycMode; rate_per_second?: number; burst?: number },
  ): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.tenantSettings(tenant), entity: ENTITY.tenantSettings, tenant, version: 1, ...settings },
      }),
    );
  }

  /** The item the stack's `TenantRecords` writes too (an operator's: `operator: true`). */
  async putAlias(clientId: string, tenant: string, options: { operator?: boolean } = {}): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.tenantAlias(clientId),
          entity: ENTITY.tenantAlias,
          tenant,
          version: 1,
          ...(options.operator && { operator: true }),
        },
      }),
    );
  }
}

const asKycMode = (value: unknown): KycMode | undefined =>
  (KYC_MODES as readonly unknown[]).includes(value) ? (value as KycMode) : undefined;
