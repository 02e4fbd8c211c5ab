import { localTableArn } from '../aws-account';
import type { RuntimeLog } from '../log';
import { startDynamoDbIamProxy } from './dynamodb-iam-proxy';
import { localTenantRoles, type ServiceRow } from './local-tenant-roles';
import { startStsStandIn } from './sts-stand-in';
import { type TenantAccessDenial, TenantAccessLedger, type TenantAccessView } from './tenant-access-ledger';

// Tenant-scoped credentials on the local runtime (docs/local.md#tenant-scoped-credentials):
// the STS stand-in issues sessions of the rows' tenant roles, and the IAM proxy in front of
// DynamoDB Local holds every call signed with one to its role's policy, so the handlers run
// the very path they run in AWS, AccessDenied included.

/** The running stand-ins, as the runtime wires them. */
export interface TenantAccessStandIns {
  /** Where the handlers' STS client is pointed (`AWS_ENDPOINT_URL_STS`). */
  readonly stsEndpoint: string;
  /** Where the handlers reach DynamoDB: the IAM proxy (the fault proxy, when on, goes in front of it). */
  readonly dynamoEndpoint: string;
  /** Sessions and calls per role and tenant, and the last refusals. */
  readonly view: TenantAccessView;
  /**
   * Registers the tenant role of each row that has one (`localTenantRoles`): the rows the
   * runtime serves, known once the bank's settings are (they decide the notice route).
   */
  registerRoles(rows: readonly ServiceRow[]): void;
  stop(): Promise<void>;
}

/** What the runtime gives the stand-ins: DynamoDB Local, its table, its log. */
export interface TenantAccessStandInOptions {
  /** DynamoDB Local's endpoint. */
  readonly upstream: string;
  readonly tableName: string;
  readonly log: RuntimeLog;
}

/** Starts the STS stand-in and the IAM proxy; no role is assumable until registered (`registerRoles`). */
export async function startTenantAccessStandIns(options: TenantAccessStandInOptions): Promise<TenantAccessStandIns> {
  const ledger = new TenantAccessLedger();
  const sts = await startStsStandIn({ onAssumed: (session) => ledger.assumed(session) });
  try {
    const proxy = await startDynamoDbIamProxy({
      upstream: options.upstream,
      session: (accessKeyId) => sts.session(accessKeyId),
      tableArn: localTableArn,
      onDecided: (call) => {
        const denial = ledger.decided(call);
        if (denial) logDenial(options.log, denial);
      },
    });
    return {
      stsEndpoint: sts.endpoint,
      dynamoEndpoint: proxy.endpoint,
      // Read-only: the view, not the ledger that counts.
      view: { counts: () => ledger.counts(), denials: () => ledger.denials() },
      registerRoles: (rows) => {
        for (const [roleArn, statements] of localTenantRoles(rows, options.tableName))
          sts.register(roleArn, statements);
      },
      stop: async () => {
        await proxy.stop();
        await sts.stop();
      },
    };
  } catch (error) {
    await sts.stop();
    throw error;
  }
}

/**
 * One ERROR line per refused call, saying what it means: the function's code, acting for
 * one tenant, named a key its tenant role does not reach; in AWS the same call meets the
 * same AccessDenied.
 */
function logDenial(log: RuntimeLog, denial: TenantAccessDenial): void {
  const keys = denial.keys.length > 0 ? denial.keys.join(', ') : 'no partition key';
  log(
    'error',
    `AccessDenied: ${denial.role}, acting for tenant ${denial.tenant}, sent ${denial.action} on ${keys}, which its tenant role does not reach: the code built a key of another tenant than the one it acts for, or one its row does not grant (docs/threat-model.md#tenant-isolation)`,
    { role: denial.role, tenant: denial.tenant, action: denial.action, resource: denial.resource, keys: denial.keys },
  );
}
