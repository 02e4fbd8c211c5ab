import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACCOUNT_ID } from '#lib/local/aws-account';
import type { LogLevel } from '#lib/local/log';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENV, withOwnVariables } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { actingFor } from '#shared/tenant-scope';
import { api, startTestRuntime } from '../harness';
import { accountBody, freshAccountNumber } from '../verify-accounts/support';

/**
 * The local runtime runs the tenant-scoped path of AWS (docs/local.md#tenant-scoped-credentials):
 * a function that acts for one tenant assumes its tenant role at the STS stand-in, tagged
 * with that tenant, and its calls about that tenant's records reach DynamoDB Local only
 * through the IAM proxy, which refuses a key of another tenant as IAM would.
 */
let runtime: LocalRuntime;
const errors: { message: string; details?: Record<string, unknown> }[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime({
    log: (level: LogLevel, message: string, details?: Record<string, unknown>) => {
      if (level === 'error') errors.push({ message, details });
    },
  });
  return () => runtime.stop();
});
afterAll(() => runtime?.stop());

const GET_PERSON_ROLE = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/local-tenant/GetPerson`;

/** A GetItem sent as GetPerson's code would send it, acting for `tenant`. */
const getAsGetPerson = (tenant: string, pk: string) =>
  withOwnVariables({ [ENV.tenantRoleArn]: GET_PERSON_ROLE }, () =>
    actingFor(tenant, () =>
      documentClient().send(new GetCommand({ TableName: runtime.tableName, Key: { pk, sk: 'P' } })),
    ),
  );

describe('tenant roles on the local runtime', () => {
  it('runs two tenants’ ordinary traffic under each one’s session of the route’s role, and refuses nothing', async () => {
    const ids: Record<string, string> = {};
    for (const tenant of ['acme', 'globex']) {
      const partner = api(runtime, await runtime.mintToken(tenant));
      const created = await partner.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
      expect(created.status).toBe(200);
      ids[tenant] = created.body.account.id;
      expect((await partner.get(`/verify/accounts/${ids[tenant]}`)).status).toBe(200);
    }
    // Another tenant's id: the key is built from the caller's own tenant, so IAM has nothing to refuse.
    const acme = api(runtime, await runtime.mintToken('acme'));
    expect((await acme.get(`/verify/accounts/${ids.globex}`)).status).toBe(404);
    await runtime.settle();

    const counts = runtime.tenantAccess.counts();
    for (const role of ['CreateVerifyAccount', 'GetVerifyAccount']) {
      for (const tenant of ['acme', 'globex']) {
        expect(counts).toContainEqual({
          role,
          tenant,
          sessions: 1,
          allowed: expect.any(Number),
          denied: 0,
        });
      }
    }
    expect(counts.find((count) => count.role === 'CreateVerifyAccount')?.allowed).toBeGreaterThan(0);
    // The pipeline acts for each account's tenant too.
    expect(counts.map(({ role, tenant }) => `${role} ${tenant}`)).toContain('VerificationWorker acme');
    expect(counts.filter((count) => count.denied > 0)).toEqual([]);
    expect(runtime.tenantAccess.denials()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('refuses, as IAM would, a key of another tenant than the one the code acts for, and says what it means', async () => {
    expect((await getAsGetPerson('acme', 'T#acme#P#1')).Item).toBeUndefined();

    const refused = await getAsGetPerson('acme', 'T#globex#P#1').catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).name).toBe('AccessDeniedException');
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^User: arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/GetPerson/tenant-acme is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:${LOCAL_ACCOUNT_ID}:table/${runtime.tableName} because`,
      ),
    );

    expect(runtime.tenantAccess.denials()).toEqual([
      expect.objectContaining({
        role: 'GetPerson',
        tenant: 'acme',
        action: 'dynamodb:GetItem',
        keys: ['T#globex#P#1'],
      }),
    ]);
    expect(runtime.tenantAccess.counts()).toContainEqual({
      role: 'GetPerson',
      tenant: 'acme',
      sessions: 1,
      allowed: 1,
      denied: 1,
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(
      /^AccessDenied: GetPerson, acting for tenant acme, sent dynamodb:GetItem on T#globex#P#1, .*another tenant than the one it acts for/,
    );
  });

  it('leaves code that acts for no tenant on the function’s own role, as in AWS', async () => {
    const before = runtime.tenantAccess.counts();
    const own = await withOwnVariables({ [ENV.tenantRoleArn]: GET_PERSON_ROLE }, () =>
      documentClient().send(new GetCommand({ TableName: runtime.tableName, Key: { pk: 'T#globex#P#1', sk: 'P' } })),
    );
    expect(own.Item).toBeUndefined();
    expect(runtime.tenantAccess.counts()).toEqual(before);
  });
});

describe('tenant roles on a runtime that leaves out the IAM proxy (the benches: enforceTenantRoles false)', () => {
  it('still assumes the tenant role and signs with it, and refuses nothing: no local hop in what the benches time', async () => {
    const bench = await startTestRuntime({ enforceTenantRoles: false });
    try {
      const send = (pk: string) =>
        withOwnVariables({ [ENV.tenantRoleArn]: GET_PERSON_ROLE }, () =>
          actingFor('acme', () =>
            documentClient().send(new GetCommand({ TableName: bench.tableName, Key: { pk, sk: 'P' } })),
          ),
        );
      await expect(send('T#globex#P#1')).resolves.toBeDefined();
      expect(bench.tenantAccess.denials()).toEqual([]);
      // The session was assumed (the credentials path ran); no call went through the proxy.
      expect(bench.tenantAccess.counts()).toContainEqual(
        expect.objectContaining({ role: 'GetPerson', tenant: 'acme', sessions: 1, allowed: 0, denied: 0 }),
      );
    } finally {
      await bench.stop();
    }
  });
});
