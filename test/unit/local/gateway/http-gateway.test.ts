import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpGateway, startHttpGateway } from '../../../../lib/local/gateway/http-gateway';
import { createJwtAuthorizer, type JwtAuthorizer } from '../../../../lib/local/gateway/jwt-authorizer';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, LocalIssuer } from '../../../../lib/local/gateway/jwt-issuer';
import type { FunctionDefinition } from '../../../../lib/local/lambda-invoker';
import { silentLog } from '../../../../lib/local/log';
import { deployedRoutes, type RouteDefinition } from '../../../../lib/service';

/** A sandbox administration route: served locally, never deployed. */
const SANDBOX_RESET: RouteDefinition = {
  id: 'ResetSandboxTenant',
  method: 'POST',
  path: '/local/sandbox/{tenant}/reset',
  scopes: ['write:verify-accounts'],
  // Never imported: the invoker below stands in for the function.
  handler: 'functions/local/reset-sandbox-tenant.ts',
  table: { actions: ['Query', 'DeleteItem'] },
  localOnly: true,
};

let issuer: LocalIssuer;
let authorizer: JwtAuthorizer;
let gateway: HttpGateway | undefined;

beforeAll(async () => {
  issuer = await LocalIssuer.generate();
  authorizer = createJwtAuthorizer({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], jwks: issuer.jwks });
});

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** The gateway on a free port, with an invoker that records each call and answers 202. */
async function startGateway(routes: readonly RouteDefinition[]) {
  const invocations: { fn: FunctionDefinition; event: any }[] = [];
  gateway = await startHttpGateway({
    routes,
    authorizer,
    invoker: {
      invoke: async (fn, event) => {
        invocations.push({ fn, event });
        return { statusCode: 202, headers: { 'content-type': 'application/json' }, body: '{"reset":true}' };
      },
    },
    port: 0,
    log: silentLog,
  });
  return { url: gateway.url, invocations };
}

describe('local HTTP gateway: local-only routes', () => {
  it('matches and serves a localOnly route, which the AWS stack never deploys', async () => {
    expect(deployedRoutes([SANDBOX_RESET])).toEqual([]);
    const { url, invocations } = await startGateway([SANDBOX_RESET]);
    const token = await issuer.mint({ tenant: 'acme', scopes: ['write:verify-accounts'] });

    const res = await fetch(`${url}/local/sandbox/acme/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });

    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ reset: true });
    expect(invocations).toHaveLength(1);
    expect(invocations[0]).toMatchObject({
      fn: { name: 'ResetSandboxTenant', handler: 'functions/local/reset-sandbox-tenant.ts' },
      event: {
        routeKey: 'POST /local/sandbox/{tenant}/reset',
        rawPath: '/local/sandbox/acme/reset',
        pathParameters: { tenant: 'acme' },
        requestContext: { authorizer: { jwt: { claims: { sub: 'acme' } } } },
      },
    });
  });

  it('puts the JWT authorizer in front of a localOnly route like any other: 401 without a token', async () => {
    const { url, invocations } = await startGateway([SANDBOX_RESET]);

    const res = await fetch(`${url}/local/sandbox/acme/reset`, { method: 'POST' });

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
    expect(invocations).toEqual([]);
  });
});
