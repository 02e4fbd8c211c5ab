import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Cipher } from '#shared/cipher/cipher';
import { DecryptCache } from '#shared/cipher/decrypt-cache';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { retryOnConflict } from '../retry';
import { concurrentUpdate } from '../versioned-update';
import { type SecretItem, secretContext } from './item';
import { webhookSecretKeys } from './keys';

/** A previous secret keeps signing this long after a rotation. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/** A tenant's signing secrets as read at one moment. */
export interface SigningSecrets {
  /** The secrets that sign at `now`, decrypted: the current one, and the previous one until it expires. */
  at(now: Date): Promise<string[]>;
}

/** Decrypted secrets a container keeps: two per tenant during a rotation, for 50 tenants. */
const SECRETS_CACHED = 100;

/**
 * A tenant's webhook signing secret (docs/data-model.md, pattern 17). Secrets go in and out
 * in plain text and are stored only as ciphertexts, so this repository needs the cipher;
 * webhook configurations (`../webhook-configurations`) do not, and their functions bundle no KMS client.
 */
export class WebhookSecretRepository {
  /**
   * One KMS Decrypt per secret per container, not one per delivery: the port keeps one
   * repository per container, and a rotation writes a new ciphertext, so it signs at once.
   */
  private readonly plaintexts = new DecryptCache(SECRETS_CACHED);

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly cipher: () => Cipher,
  ) {}

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
              Item: { ...webhookSecretKeys.secret(tenant), entity: ENTITY.webhookSecret, ...item },
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
    return (await this.signingSecretsOf(tenant)).at(now);
  }

  /**
   * The tenant's secrets as stored now (one read), to sign any number of deliveries: a
   * batch of them reads the item once and asks for each delivery's time.
   */
  async signingSecretsOf(tenant: string): Promise<SigningSecrets> {
    const stored = await this.storedSecret(tenant);
    return {
      at: (now) => {
        if (!stored) return Promise.resolve([]);
        const live = [stored.current_secret];
        if (stored.previous_secret && stored.previous_expires_at && stored.previous_expires_at > now.toISOString())
          live.push(stored.previous_secret);
        return Promise.all(live.map((ciphertext) => this.decrypt(tenant, ciphertext)));
      },
    };
  }

  private async storedSecret(tenant: string): Promise<SecretItem | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: webhookSecretKeys.secret(tenant), ConsistentRead: true }),
    );
    return out.Item?.entity === ENTITY.webhookSecret ? (out.Item as SecretItem) : undefined;
  }

  private decrypt(tenant: string, ciphertext: string): Promise<string> {
    return this.plaintexts.decrypt(this.cipher(), ciphertext, secretContext(tenant));
  }
}
