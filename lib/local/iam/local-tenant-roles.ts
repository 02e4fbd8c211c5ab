import {
  type ConsumerDefinition,
  type RouteDefinition,
  type TableAccess,
  tableAccessOf,
  tableAccessOfRoute,
} from '#lib/service/index';
import { type PolicyStatementJson, splitTenantAccess, tenantRoleStatements } from '#lib/service/tenant-access';
import { ENV } from '#shared/config';
import { type IndexName, TABLE_SCHEMA } from '#shared/db/schema';
import { LOCAL_ACCOUNT_ID, localTableArn } from '../aws-account';

// The local runtime's tenant roles: for each row that acts for one tenant and reaches
// tenants' records, the role the stack builds for its function (lib/constructs/tenant-role.ts),
// from the same split and the same statements, on the local table's ARN.

/** A row of lib/service: a route's or a consumer's. */
export type ServiceRow = RouteDefinition | ConsumerDefinition;

/** The IAM path the local tenant roles are under: `arn:aws:iam::<account>:role/local-tenant/<row id>`. */
const ROLE_PATH = 'local-tenant';

const tenantAccess = new WeakMap<ServiceRow, readonly TableAccess[]>();

/**
 * A row's accesses to tenants' records, which go on its tenant role: its grant (a route's
 * with the HTTP stack's share) split as the stack splits it; none for a row that declares
 * `crossTenant`. Computed once per row: the invoker asks on every invocation.
 */
function tenantAccessOf(row: ServiceRow): readonly TableAccess[] {
  let access = tenantAccess.get(row);
  if (!access) {
    const grant = 'method' in row ? tableAccessOfRoute(row) : tableAccessOf(row);
    access = splitTenantAccess(grant, row.crossTenant === undefined).tenant;
    tenantAccess.set(row, access);
  }
  return access;
}

/** The ARN of a row's local tenant role; undefined for a row without one. */
export function localTenantRoleArn(row: ServiceRow): string | undefined {
  return tenantAccessOf(row).length > 0 ? `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/${ROLE_PATH}/${row.id}` : undefined;
}

/**
 * What differs per function in its environment, as the stack sets it: `TENANT_ROLE_ARN` for
 * a row with a tenant role, nothing otherwise (lib/local/lambda-invoker.ts applies it).
 */
export function ownEnvironmentOf(row: ServiceRow): Readonly<Record<string, string>> {
  const roleArn = localTenantRoleArn(row);
  return roleArn === undefined ? {} : { [ENV.tenantRoleArn]: roleArn };
}

/** Each row's tenant role on the local table, ARN → its policy's statements (`tenantRoleStatements`). */
export function localTenantRoles(
  rows: readonly ServiceRow[],
  tableName: string,
): Map<string, readonly PolicyStatementJson[]> {
  const table = localTableArn(tableName);
  const arns = { table, index: (name: IndexName) => `${table}/index/${TABLE_SCHEMA.indexes[name].name}` };
  const roles = new Map<string, readonly PolicyStatementJson[]>();
  for (const row of rows) {
    const roleArn = localTenantRoleArn(row);
    if (roleArn !== undefined) roles.set(roleArn, tenantRoleStatements(tenantAccessOf(row), arns));
  }
  return roles;
}
