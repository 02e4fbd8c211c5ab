import { ArnPrincipal, PolicyDocument, PolicyStatement, PrincipalWithConditions, Role } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { TableAccess } from '#lib/service/index';
import { TENANT_SESSION_TAG, tenantRoleStatements } from '#lib/service/tenant-access';
import type { DataTable } from './data-table';

export interface TenantRoleProps {
  /** The execution role of the one function that may assume it. */
  readonly assumedBy: Role;
  /** The function's accesses to tenants' records (`splitTenantAccess(…).tenant`). */
  readonly access: readonly TableAccess[];
  readonly dataTable: DataTable;
}

/**
 * The role a function assumes, once per tenant per warm container, to call DynamoDB about
 * one tenant (functions/shared/db/tenant-access/): `sts:AssumeRole` with the session tag
 * `tenant`, trusted from that function's execution role alone and only with exactly that
 * one tag. Its policy is the function's own table accesses to tenants' records, each
 * confined to the session's tenant's keys (`tenantRoleStatements`), and the storage key's
 * `table` use: credentials of tenant A reach no item of tenant B, whatever key the code
 * builds (docs/threat-model.md#tenant-isolation).
 */
export class TenantRole extends Construct {
  readonly role: Role;

  constructor(scope: Construct, id: string, props: TenantRoleProps) {
    super(scope, id);
    const { dataTable } = props;
    const statements = tenantRoleStatements(props.access, {
      table: dataTable.table.tableArn,
      index: (name) => dataTable.indexArn(name),
    }).map((statement) => PolicyStatement.fromJson(statement));
    if (statements.length === 0)
      throw new Error(`${this.node.path}: a tenant role needs some access to a tenant's records`);
    statements.push(dataTable.key.statement('table'));

    // Assumed with one tag, `tenant`, set and not empty; TagSession is what setting it needs.
    const sessionTag = {
      StringLike: { [`aws:RequestTag/${TENANT_SESSION_TAG}`]: '?*' },
      'ForAllValues:StringEquals': { 'aws:TagKeys': [TENANT_SESSION_TAG] },
    };
    this.role = new Role(this, 'Role', {
      assumedBy: new PrincipalWithConditions(new ArnPrincipal(props.assumedBy.roleArn), sessionTag).withSessionTags(),
      description: `Tenant-scoped access of ${props.assumedBy.node.path}: the session tag tenant names whose records it reaches`,
      inlinePolicies: { TenantRecords: new PolicyDocument({ statements }) },
    });
    props.assumedBy.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['sts:AssumeRole', 'sts:TagSession'],
        resources: [this.role.roleArn],
        conditions: sessionTag,
      }),
    );
  }
}
