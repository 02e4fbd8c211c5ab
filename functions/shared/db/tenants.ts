import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { ENTITY, keys } from './keys';

/**
 * A tenant may own several OAuth client ids (credential rotation): an alias record maps a
 * client id to its tenant; without one the client id is the tenant (docs/api.md#authentication-and-tenants).
 */
export class TenantRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async tenantOfClient(clientId: string): Promise<string> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.tenantAlias(clientId) }));
    return typeof out.Item?.tenant === 'string' ? out.Item.tenant : clientId;
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

/** The tenant aliases on the service's table; tests may replace them. */
export const tenants = port('tenants', () => new TenantRepository(documentClient(), tableName()));
