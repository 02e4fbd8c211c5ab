import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { MAX_WEBHOOK_CONFIGURATIONS, subscribes, type WebhookConfiguration } from '#domain/webhook-configuration';
import type { Cipher } from '#shared/cipher/cipher';
import { ConflictError, InternalError } from '#shared/errors';
import { failedConditions, isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { retryOnConflict } from '../retry';
import { concurrentUpdate } from '../versioned-update';
import { configurationItem, type SecretItem, secretContext, toConfiguration } from './item';
import { webhookKeys } from './keys';

/** What a replacement sets: the request's fields and who sent it. */
export interface ConfigurationFields {
  url: string;
  event_types: string[];
  enabled: boolean;
}

/** A previous secret keeps signing this long after a rotation. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

export const tooManyConfigurations = () =>
  new ConflictError(
    'too_many_webhook_configurations',
    `a tenant may hold at most ${MAX_WEBHOOK_CONFIGURATIONS} webhook configurations; delete one first`,
  );

/**
 * Webhook configurations and the signing secret (docs/data-model.md, patterns 15–17).
 * Secrets go in and out in plain text and are stored only as ciphertexts; the cipher is
 * reached lazily, so the configuration routes, which never touch a secret, need no key.
 */
export class WebhookRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly cipher: () => Cipher,
  ) {}

  /** One transaction with the tenant's count, whose condition keeps the cap exact under concurrency. */
  async createConfiguration(configuration: WebhookConfiguration): Promise<void> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: configurationItem(configuration),
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
        }),
      );
    } catch (error) {
      const failed = failedConditions(error);
      if (failed.includes(1)) throw tooManyConfigurations();
      if (failed.includes(0)) throw new InternalError('webhook configuration id collision');
      throw error;
    }
  }

  /** The tenant's configurations, newest first (`created_at`, then id, descending). */
  async configurations(tenant: string): Promise<WebhookConfiguration[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': webhookKeys.configurations(tenant) },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(out.Items ?? []));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return items
      .filter((item) => item.entity === ENTITY.webhookConfiguration)
      .map(toConfiguration)
      .sort((a, b) => descending(a.created_at, b.created_at) || descending(a.id, b.id));
  }

  /** One configuration, for a delivery (GetItem; undefined when deleted meanwhile). */
  async configuration(tenant: string, id: string): Promise<WebhookConfiguration | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: webhookKeys.configuration(tenant, id) }),
    );
    return out.Item?.entity === ENTITY.webhookConfiguration ? toConfiguration(out.Item) : undefined;
  }

  /** For the sender: the enabled configurations that take an event of `eventType`. */
  async enabledConfigurationsFor(tenant: string, eventType: string): Promise<WebhookConfiguration[]> {
    return (await this.configurations(tenant)).filter((c) => c.enabled && subscribes(c.event_types, eventType));
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
          Key: webhookKeys.configuration(tenant, id),
          UpdateExpression:
            'SET #url = :url, #event_types = :event_types, #enabled = :enabled, #updated_at = :now, #updated_by = :by ADD #version :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: {
            '#url': 'url',
            '#event_types': 'event_types',
            '#enabled': 'enabled',
            '#updated_at': 'updated_at',
            '#updated_by': 'updated_by',
            '#version': 'version',
          },
          ExpressionAttributeValues: {
            ':url': fields.url,
            ':event_types': fields.event_types,
            ':enabled': fields.enabled,
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

  /** Deletes the configuration and counts it out, in one transaction; false when there is none. */
  async deleteConfiguration(tenant: string, id: string): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.tableName,
                Key: webhookKeys.configuration(tenant, id),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            { Update: this.countChange(tenant, -1) },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (failedConditions(error).includes(0)) return false;
      throw error;
    }
  }

  /**
   * Makes `secret` the tenant's signing secret. The one it replaces becomes the previous
   * secret for 24 h; an older previous secret is dropped. Read and conditional write, again
   * on a lost race, so two rotations at once both take effect, one after the other.
   */
  async rotateSecret(tenant: string, secret: string, now: Date): Promise<{ created_at: string }> {
    const ciphertext = await this.cipher().encrypt(secret, secretContext(tenant));
    const createdAt = now.toISOString();
    await retryOnConflict(
      async () => {
        const stored = await this.storedSecret(tenant);
        const item: SecretItem = {
          tenant,
          current_secret: ciphertext,
          created_at: createdAt,
          previous_secret: stored?.current_secret,
          previous_expires_at: stored && new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS).toISOString(),
          version: (stored?.version ?? 0) + 1,
        };
        try {
          await this.db.send(
            new PutCommand({
              TableName: this.tableName,
              Item: { ...webhookKeys.secret(tenant), entity: ENTITY.webhookSecret, ...item },
              ConditionExpression: stored ? 'version = :v' : 'attribute_not_exists(pk)',
              ExpressionAttributeValues: stored ? { ':v': stored.version } : undefined,
            }),
          );
        } catch (error) {
          if (isConditionFailure(error)) throw concurrentUpdate();
          throw error;
        }
      },
      { attempts: 5, jitterMs: 25 },
    );
    return { created_at: createdAt };
  }

  /** The tenant's current signing secret, decrypted; `undefined` before the first one. */
  async currentSecret(tenant: string): Promise<{ secret: string; created_at: string } | undefined> {
    const stored = await this.storedSecret(tenant);
    if (!stored) return undefined;
    return { secret: await this.decrypt(tenant, stored.current_secret), created_at: stored.created_at };
  }

  /**
   * For the sender: every secret a delivery is signed with at `now` — the current one, and
   * the previous one until it expires (24 h after the rotation). None before the first.
   */
  async signingSecrets(tenant: string, now: Date): Promise<string[]> {
    const stored = await this.storedSecret(tenant);
    if (!stored) return [];
    const live = [stored.current_secret];
    if (stored.previous_secret && stored.previous_expires_at && stored.previous_expires_at > now.toISOString())
      live.push(stored.previous_secret);
    return Promise.all(live.map((ciphertext) => this.decrypt(tenant, ciphertext)));
  }

  private async storedSecret(tenant: string): Promise<SecretItem | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: webhookKeys.secret(tenant), ConsistentRead: true }),
    );
    return out.Item?.entity === ENTITY.webhookSecret ? (out.Item as SecretItem) : undefined;
  }

  private decrypt(tenant: string, ciphertext: string): Promise<string> {
    return this.cipher().decrypt(ciphertext, secretContext(tenant));
  }

  private countChange(tenant: string, by: 1 | -1) {
    return {
      TableName: this.tableName,
      Key: webhookKeys.configurationCount(tenant),
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
