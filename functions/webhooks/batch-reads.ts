import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { webhookConfigurations } from '#shared/db/webhook-configurations/index';

/**
 * A read that a batch makes once per tenant, however many of its records need it (a
 * tenant's webhook configurations, its signing secrets). Before, each record read its own,
 * and under load those repeats were most of the pipeline's table calls (issue 21).
 *
 * One is made per invocation and dropped with it, never kept in the container: a
 * configuration disabled or a secret rotated takes effect on the next batch, as it did
 * when every record read its own. Records of one batch running side by side share the
 * read in flight; a read that fails is forgotten, so a record that asks after the failure
 * tries again rather than failing on another's error.
 */
export class OncePerTenant<T> {
  private readonly reads = new Map<string, Promise<T>>();

  constructor(private readonly read: (tenant: string) => Promise<T>) {}

  of(tenant: string): Promise<T> {
    const held = this.reads.get(tenant);
    if (held) return held;
    const read = this.read(tenant);
    this.reads.set(tenant, read);
    read.catch(() => {
      if (this.reads.get(tenant) === read) this.reads.delete(tenant);
    });
    return read;
  }
}

/** The tenant's configurations (one Query of their partition), once per tenant for the batch at hand. */
export const configurationsPerBatch = (): OncePerTenant<WebhookConfiguration[]> =>
  new OncePerTenant((tenant) => webhookConfigurations().configurations(tenant));
