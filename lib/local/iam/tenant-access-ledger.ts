import { TENANT_SESSION_TAG } from '#lib/service/tenant-access';
import type { DecidedCall } from './dynamodb-iam-proxy';
import type { StandInSession } from './sts-stand-in';

// What the local stand-ins for STS and IAM saw, per tenant role and tenant, for tests and
// operators (`LocalRuntime.tenantAccess`): that the tenant path really runs, and what it refused.

/** One tenant role's use for one tenant. */
export interface TenantAccessCount {
  /** The role's name: the function's row id (`GetPerson`). */
  readonly role: string;
  readonly tenant: string;
  /** Sessions assumed (AssumeRole answered). */
  readonly sessions: number;
  /** DynamoDB calls under those sessions that IAM allowed. */
  readonly allowed: number;
  /** DynamoDB calls it refused (AccessDeniedException). */
  readonly denied: number;
}

/** One refused DynamoDB call: whose, and the first request of it the role's policy does not allow. */
export interface TenantAccessDenial {
  readonly at: Date;
  readonly role: string;
  readonly tenant: string;
  /** `dynamodb:GetItem`, … */
  readonly action: string;
  /** The table's ARN, or an index's. */
  readonly resource: string;
  /** The request's partition keys (`dynamodb:LeadingKeys`). */
  readonly keys: readonly string[];
}

/** The read-only view of the ledger. */
export interface TenantAccessView {
  /** Per role and tenant, sorted by role then tenant. */
  counts(): TenantAccessCount[];
  /** The last refused calls (at most `KEPT_DENIALS`), oldest first. */
  denials(): TenantAccessDenial[];
}

/** How many refused calls the ledger keeps. */
export const KEPT_DENIALS = 50;

type MutableCount = { -readonly [K in keyof TenantAccessCount]: TenantAccessCount[K] };

/** Counts sessions and decided calls per role and tenant, and keeps the last refusals. */
export class TenantAccessLedger implements TenantAccessView {
  private readonly byRoleAndTenant = new Map<string, MutableCount>();
  private readonly lastDenials: TenantAccessDenial[] = [];

  /** A session was issued (the STS stand-in's `onAssumed`). */
  assumed(session: StandInSession): void {
    this.countOf(session).sessions += 1;
  }

  /** A session's call was decided (the IAM proxy's `onDecided`); returns the denial, if it was refused. */
  decided(call: DecidedCall): TenantAccessDenial | undefined {
    const count = this.countOf(call.session);
    if (!call.refused) {
      count.allowed += 1;
      return undefined;
    }
    count.denied += 1;
    const { request } = call.refused;
    const denial = {
      at: new Date(),
      role: count.role,
      tenant: count.tenant,
      action: request.action,
      resource: request.resource,
      keys: request.leadingKeys,
    };
    this.lastDenials.push(denial);
    this.lastDenials.splice(0, this.lastDenials.length - KEPT_DENIALS);
    return denial;
  }

  counts(): TenantAccessCount[] {
    return [...this.byRoleAndTenant.values()]
      .map((count) => ({ ...count }))
      .sort((a, b) => a.role.localeCompare(b.role) || a.tenant.localeCompare(b.tenant));
  }

  denials(): TenantAccessDenial[] {
    return [...this.lastDenials];
  }

  private countOf(session: StandInSession): MutableCount {
    const tenant = session.tags[TENANT_SESSION_TAG] ?? '';
    const key = `${session.roleName} ${tenant}`;
    let count = this.byRoleAndTenant.get(key);
    if (!count) {
      count = { role: session.roleName, tenant, sessions: 0, allowed: 0, denied: 0 };
      this.byRoleAndTenant.set(key, count);
    }
    return count;
  }
}
