import { isTenantKind, type KeyKind, tenantKeyPattern } from '#shared/db/key-kinds';
import type { IndexName } from '#shared/db/schema';
import { TENANT_SESSION_TAG } from '#shared/db/tenant-access/session-tag';
import type { TableAccess } from './types';

// Tenant-scoped credentials (docs/threat-model.md#tenant-isolation): a function that acts
// for one tenant per request or message calls DynamoDB about that tenant's records with
// credentials of its tenant role, assumed with the session tag `tenant`, whose policy
// reaches that tenant's keys alone. This file says, from a function's row, which of its
// table accesses move to that role and what the role's policy is; the CDK stack builds the
// roles from it (lib/constructs/service-function.ts) and the local runtime's stand-in for
// STS and IAM enforces the same policy on DynamoDB Local (lib/local/iam/).

export { TENANT_SESSION_TAG };

/** How a tenant role's policy names the tenant of the session: IAM substitutes the session's tag. */
export const TENANT_TAG_VARIABLE = `\${aws:PrincipalTag/${TENANT_SESSION_TAG}}`;

/** A row's table accesses split by whose records they reach. */
export interface TenantSplit {
  /** On the tenant role: accesses to the kinds each tenant owns (`KEY_OWNER`), and every index Query. */
  readonly tenant: readonly TableAccess[];
  /** On the function's own role: accesses to records of no tenant (aliases, screening entries). */
  readonly own: readonly TableAccess[];
}

/**
 * Splits a function's table accesses by whose records they reach: the kinds each tenant
 * owns go on the tenant role, with the indexes the access walks (a function that acts for
 * one tenant walks only that tenant's index partitions, `T#<tenant>#…`: the tests' tenant
 * check holds it to that); kinds no tenant owns stay on the function's own role, with the
 * indexes the access walks for them (the screening lists' `SCREEN#<list>#LISTINGS`), which
 * the stack then confines to those kinds' partitions too (`DataTable.statementsFor`). A
 * function whose row declares `crossTenant` acts for no one tenant and keeps every access
 * on its own role (`actsForOneTenant` false).
 */
export function splitTenantAccess(accesses: readonly TableAccess[], actsForOneTenant: boolean): TenantSplit {
  if (!actsForOneTenant) return { tenant: [], own: accesses };
  const tenant: TableAccess[] = [];
  const own: TableAccess[] = [];
  for (const access of accesses) {
    const kinds = access.leadingKeys ?? [];
    const indexes = access.indexes ?? [];
    const withIndexes = indexes.length > 0 ? { indexes } : {};
    const tenantKinds = kinds.filter(isTenantKind);
    const otherKinds = kinds.filter((kind) => !isTenantKind(kind));
    if (tenantKinds.length > 0) tenant.push({ actions: access.actions, leadingKeys: tenantKinds, ...withIndexes });
    if (otherKinds.length > 0) own.push({ actions: access.actions, leadingKeys: otherKinds, ...withIndexes });
    if (kinds.length > 0) continue;
    // Actions that name no kind stay as they are, for the stack to refuse (`DataTable.statementsFor`);
    // indexes alone are walked for the tenant.
    if (access.actions.length > 0) own.push(access);
    else if (indexes.length > 0) tenant.push({ actions: [], ...withIndexes });
  }
  return { tenant, own };
}

/** One IAM policy statement, as JSON. */
export interface PolicyStatementJson {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: readonly string[];
  readonly Resource: readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

/** Where a policy's statements point: the table's ARN and an index's. */
export interface TableArns {
  readonly table: string;
  index(name: IndexName): string;
}

/** The session's tenant's keys of the kinds given (`tenantKeyPattern` under the tag variable). */
const tenantPatterns = (kinds: readonly KeyKind[]): string[] =>
  [...new Set(kinds)].map((kind) => tenantKeyPattern(kind, TENANT_TAG_VARIABLE)).sort();

/** `dynamodb:LeadingKeys` confined to the patterns, and present (as `keyConfinement` in lib/constructs/data-table.ts). */
const confinedTo = (patterns: readonly string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
  Null: { 'dynamodb:LeadingKeys': 'false' },
});

/**
 * The tenant role's table statements: each access's actions on the table, confined to the
 * session tenant's keys of its kinds (`T#${aws:PrincipalTag/tenant}#*`,
 * `RATE#${aws:PrincipalTag/tenant}`, …), and `Query` on each index it names, confined to the
 * session tenant's index partitions of the same kinds (for an index Query,
 * `dynamodb:LeadingKeys` is the index's partition key: a tenant's list partitions are
 * `T#<tenant>#…`). Nothing here reaches another
 * tenant's record, whatever key the code builds.
 */
export function tenantRoleStatements(accesses: readonly TableAccess[], arns: TableArns): PolicyStatementJson[] {
  const statements: PolicyStatementJson[] = [];
  for (const access of accesses) {
    const actions = [...new Set(access.actions)].sort();
    const kinds = access.leadingKeys ?? [];
    if (actions.length > 0) {
      statements.push({
        Effect: 'Allow',
        Action: actions.map((action) => `dynamodb:${action}`),
        Resource: [arns.table],
        Condition: confinedTo(tenantPatterns(kinds)),
      });
    }
    const indexes = [...new Set(access.indexes ?? [])].sort();
    if (indexes.length > 0) {
      statements.push({
        Effect: 'Allow',
        Action: ['dynamodb:Query'],
        Resource: indexes.map((index) => arns.index(index)),
        Condition: confinedTo(tenantPatterns(kinds.length > 0 ? kinds : ['tenantData'])),
      });
    }
  }
  return statements;
}
