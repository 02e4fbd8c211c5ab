import type { AwsCredentialIdentity } from '@aws-sdk/types';

/** Credentials of one session: what the SDK signs with, and until when they hold. */
export type SessionCredentials = AwsCredentialIdentity & { readonly expiration: Date };

/** Assumes `roleArn` tagged with the tenant: STS's AssumeRole in AWS (`assumeWithSts`), a stand-in in tests. */
export type AssumeTenantRole = (roleArn: string, tenant: string) => Promise<SessionCredentials>;

/** How long before they lapse a tenant's credentials are replaced: more than the SDK's own 5 minutes. */
export const REFRESH_BEFORE_MS = 10 * 60_000;
/** Sessions a warm container keeps at most (the least recently used goes first). */
export const MAX_SESSIONS = 64;

/**
 * Each tenant's credentials for the function's tenant role, assumed on its first call about
 * that tenant and kept for this warm container until shortly before they lapse
 * (`REFRESH_BEFORE_MS`): in steady state a request adds no call. Concurrent first calls for
 * one tenant share one AssumeRole. At most `MAX_SESSIONS` tenants are kept, so a container
 * serving many tenants stays bounded; a tenant pushed out is assumed again on its next call.
 */
export class TenantCredentials {
  private readonly sessions = new Map<string, Promise<SessionCredentials>>();

  constructor(
    private readonly assume: AssumeTenantRole,
    private readonly now: () => number = Date.now,
  ) {}

  /** The tenant's current credentials for the role. */
  async credentials(roleArn: string, tenant: string): Promise<SessionCredentials> {
    const key = `${roleArn} ${tenant}`;
    const held = this.sessions.get(key);
    if (held) {
      const credentials = await held.catch(() => undefined);
      if (credentials && credentials.expiration.getTime() - this.now() > REFRESH_BEFORE_MS) {
        this.touch(key, held);
        return credentials;
      }
      // Lapsing, or the assumption failed: the first caller to see it assumes again.
      if (this.sessions.get(key) !== held) return this.credentials(roleArn, tenant);
    }
    const assuming = this.assume(roleArn, tenant);
    this.touch(key, assuming);
    // A failed assumption is not kept: the next call tries again.
    assuming.catch(() => {
      if (this.sessions.get(key) === assuming) this.sessions.delete(key);
    });
    return assuming;
  }

  /** The most tenants kept (`MAX_SESSIONS`). */
  readonly capacity = MAX_SESSIONS;

  /** Tenants whose credentials are kept (tests). */
  get size(): number {
    return this.sessions.size;
  }

  private touch(key: string, session: Promise<SessionCredentials>): void {
    this.sessions.delete(key);
    this.sessions.set(key, session);
    while (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.delete(oldest);
    }
  }
}
