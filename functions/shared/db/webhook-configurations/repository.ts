import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_WEBHOOK_CONFIGURATIONS, type WebhookConfiguration } from '#domain/webhook-configuration';
import { ConflictError } from '#shared/errors';
import { failedConditions, isConditionFailure } from '../conditions';
import { readEarlierAttempt } from '../created-item';
import { ENTITY } from '../entities';
import { type KeepAnswer, writeTransaction } from '../idempotency/kept-answer';
import { REQUEST_FINGERPRINT } from '../items';
import { tablePartition } from '../paging/partitions';
import { configurationItem, toConfiguration } from './item';
import { webhookConfigurationKeys } from './keys';

/** What a replacement sets: the configuration's own fields and the replacing token's scopes, as the domain shapes them. */
export type ConfigurationFields = Required<Pick<WebhookConfiguration, 'url' | 'event_types' | 'enabled' | 'scopes'>>;

export const tooManyConfigurations = () =>
  new ConflictError(
    'too_many_webhook_configurations',
    `a tenant may hold at most ${MAX_WEBHOOK_CONFIGURATIONS} webhook configurations; delete one first`,
  );

/**
 * Webhook configurations (docs/data-model.md, patterns 15 and 16). The signing secret has
 * a repository of its own (`../webhook-secrets`): it needs the cipher, and a function that
 * only reads or writes configurations should not bundle a KMS client.
 */
export class WebhookConfigurationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * One transaction with the tenant's count, whose condition keeps the cap exact under
   * concurrency. When the configuration's id was made from an `Idempotency-Key`
   * (#shared/created-id) and the request's `fingerprint` is given, a configuration an
   * earlier attempt of the same request stored under that id (its answer lost on the way
   * back) is answered instead; another request under that id is `idempotency_key_reused`,
   * one made under it more than the key's 24 h ago `CreatedIdTaken` (../created-item.ts).
   * With `keep`, the request's answer is written with it (../idempotency/kept-answer.ts).
   * Answers the configuration stored.
   */
  async createConfiguration(
    configuration: WebhookConfiguration,
    now: Date,
    fingerprint?: string,
    keep?: KeepAnswer<WebhookConfiguration>,
  ): Promise<WebhookConfiguration> {
    try {
      await writeTransaction(
        this.db,
        [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...configurationItem(configuration), [REQUEST_FINGERPRINT]: fingerprint },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              ...this.countChange(configuration.tenant, 1),
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
            },
          },
        ],
        keep?.(configuration),
      );
      return configuration;
    } catch (error) {
      const failed = failedConditions(error);
      // The id first: the retry of a create that landed may find the cap reached by its own first attempt.
      if (failed.includes(0)) {
        const key = webhookConfigurationKeys.configuration(configuration.tenant, configuration.id);
        const what = 'webhook configuration';
        return toConfiguration(await readEarlierAttempt(this.db, this.tableName, key, { fingerprint, now, what }));
      }
      if (failed.includes(1)) throw tooManyConfigurations();
      throw error;
    }
  }

  /**
   * The tenant's configurations, newest first (`created_at`, then id, descending): one
   * strongly consistent Query of their partition (at most MAX_WEBHOOK_CONFIGURATIONS). The
   * fan-out and the delivery worker read them so, once per tenant per batch.
   */
  async configurations(tenant: string): Promise<WebhookConfiguration[]> {
    const items = await tablePartition(this.db, this.tableName, webhookConfigurationKeys.configurations(tenant));
    return items
      .filter((item) => item.entity === ENTITY.webhookConfiguration)
      .map(toConfiguration)
      .sort((a, b) => descending(a.created_at, b.created_at) || descending(a.id, b.id));
  }

  /** PUT semantics, one write: the fields are replaced as a whole; `undefined` when no such configuration. */
  async replaceConfiguration(
    tenant: string,
    id: string,
    fields: ConfigurationFields,
    by: string,
    now: Date,
  ): Promise<WebhookConfiguration | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookConfigurationKeys.configuration(tenant, id),
          UpdateExpression:
            'SET #url = :url, #event_types = :event_types, #enabled = :enabled, #scopes = :scopes, #updated_at = :now, #updated_by = :by ADD #version :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: {
            '#url': 'url',
            '#event_types': 'event_types',
            '#enabled': 'enabled',
            '#scopes': 'scopes',
            '#updated_at': 'updated_at',
            '#updated_by': 'updated_by',
            '#version': 'version',
          },
          ExpressionAttributeValues: {
            ':url': fields.url,
            ':event_types': fields.event_types,
            ':enabled': fields.enabled,
            ':scopes': fields.scopes,
            ':now': now.toISOString(),
            ':by': by,
            ':one': 1,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? toConfiguration(out.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /**
   * Deletes the configuration and counts it out, in one transaction; false when there is
   * none. With `keep`, the request's answer is written with it.
   */
  async deleteConfiguration(tenant: string, id: string, keep?: KeepAnswer<void>): Promise<boolean> {
    try {
      await writeTransaction(
        this.db,
        [
          {
            Delete: {
              TableName: this.tableName,
              Key: webhookConfigurationKeys.configuration(tenant, id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          { Update: this.countChange(tenant, -1) },
        ],
        keep?.(),
      );
      return true;
    } catch (error) {
      if (failedConditions(error).includes(0)) return false;
      throw error;
    }
  }

  private countChange(tenant: string, by: 1 | -1) {
    return {
      TableName: this.tableName,
      Key: webhookConfigurationKeys.configurationCount(tenant),
      UpdateExpression: 'SET #entity = :entity, #tenant = :tenant ADD #count :by, #version :one',
      ExpressionAttributeNames: { '#entity': 'entity', '#tenant': 'tenant', '#count': 'count', '#version': 'version' },
      ExpressionAttributeValues: {
        ':entity': ENTITY.webhookConfigurationCount,
        ':tenant': tenant,
        ':by': by,
        ':one': 1,
        ...(by > 0 && { ':max': MAX_WEBHOOK_CONFIGURATIONS }),
      },
    };
  }
}

const descending = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);
