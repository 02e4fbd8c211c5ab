import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { KYC_MODES, type KycMode } from '#domain/person';
import { type BucketPolicy, isBucketPolicy } from '#domain/token-bucket';
import { ENV, optionalEnv } from '#shared/config';
import { ENTITY, keys } from '../keys';

/**
 * A tenant may own several OAuth client ids (credential rotation): an alias record maps a
 * client id to its tenant, and only a client id with one acts for a tenant
 * (docs/api.md#authentication-and-tenants).
 */
export class TenantRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The tenant the client id's alias record names; undefined without one. */
  async tenantOfClient(clientId: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.tenantAlias(clientId) }));
    return typeof out.Item?.tenant === 'string' && out.Item.tenant !== '' ? out.Item.tenant : undefined;
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

  async putAlias(clientId: string, tenant: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.tenantAlias(clientId), entity: ENTITY.tenantAlias, tenant, version: 1 },
      }),
    );
  }
}

const asKycMode = (value: unknown): KycMode | undefined =>
  (KYC_MODES as readonly unknown[]).includes(value) ? (value as KycMode) : undefined;
