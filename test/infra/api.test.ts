import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { deployedRoutes, ROUTES, type RouteDefinition, routeKey } from '#lib/service/index';
import { RESOURCE_SERVER_ID } from '#shared/scopes';
import { buildApp, propsOf, refId, resourcesOf, synthTemplate } from './harness';

const template = synthTemplate();
const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'));
/** The Properties of the API route with this route key; throws when there is none. */
const routeFor = (key: string) =>
  propsOf(
    routes.find((r) => r.Properties?.RouteKey === key),
    `API route ${key}`,
  );
const DEPLOYED = deployedRoutes(ROUTES);

describe('HTTP API routes', () => {
  it('has exactly one route per deployed entry of the route table, and no other', () => {
    expect(routes.map((r) => r.Properties?.RouteKey).sort()).toEqual(DEPLOYED.map(routeKey).sort());
  });

  it('gets neither a route nor a function for a local-only entry of the route table', () => {
    const localOnly: RouteDefinition = {
      id: 'SandboxAdminProbe',
      method: 'POST',
      path: '/sandbox/probe',
      scopes: ['write:verify-accounts'],
      handler: 'functions/verify-accounts/handlers/get.ts',
      table: { actions: ['GetItem'] },
      localOnly: true,
    };
    const { stack } = buildApp({ stackProps: { routes: [...ROUTES, localOnly] } });
    const probe = Template.fromStack(stack);
    const routeKeys = Object.values(resourcesOf(probe, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties?.RouteKey);
    expect(routeKeys.sort()).toEqual(DEPLOYED.map(routeKey).sort());
    expect(routeKeys).not.toContain(routeKey(localOnly));
    const descriptions = Object.values(resourcesOf(probe, 'AWS::Lambda::Function')).map(
      (f) => f.Properties?.Description,
    );
    expect(descriptions).toEqual(expect.arrayContaining(DEPLOYED.map(routeKey)));
    expect(descriptions).not.toContain(routeKey(localOnly));
    expect(Object.keys(resourcesOf(probe, 'AWS::Lambda::Function'))).toHaveLength(
      Object.keys(resourcesOf(template, 'AWS::Lambda::Function')).length,
    );
    expect([...stack.functions.keys()].sort()).toEqual(DEPLOYED.map((r) => r.id).sort());
  });

  it.each(DEPLOYED.map((r) => [routeKey(r), r] as const))(
    '%s requires a JWT carrying exactly its scopes, prefixed with the resource server id',
    (key, route) => {
      const props = routeFor(key);
      expect(props.AuthorizationType).toBe('JWT');
      expect([...props.AuthorizationScopes].sort()).toEqual(
        route.scopes.map((s) => `${RESOURCE_SERVER_ID}/${s}`).sort(),
      );
    },
  );

  it('protects every route with the one JWT authorizer reading the Authorization header', () => {
    const authorizers = resourcesOf(template, 'AWS::ApiGatewayV2::Authorizer');
    expect(Object.keys(authorizers)).toHaveLength(1);
    const [authorizerId, authorizer] = Object.entries(authorizers)[0]!;
    expect(authorizer.Properties?.AuthorizerType).toBe('JWT');
    expect(authorizer.Properties?.IdentitySource).toEqual(['$request.header.Authorization']);
    for (const route of routes) expect(refId(route.Properties?.AuthorizerId)).toBe(authorizerId);
  });

  it.each(DEPLOYED.map((r) => [routeKey(r), r] as const))(
    '%s is served by its own function (integration → function described by the route key)',
    (key) => {
      const target = routeFor(key).Target['Fn::Join'][1][1];
      const integration = resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[refId(target)!];
      expect(integration?.Properties?.IntegrationType).toBe('AWS_PROXY');
      expect(integration?.Properties?.PayloadFormatVersion).toBe('2.0');
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[refId(integration?.Properties?.IntegrationUri)!];
      expect(fn?.Properties?.Description).toBe(key);
    },
  );
});

describe('HTTP API default stage', () => {
  const stages = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));

  it('is the only stage, auto-deployed and throttled', () => {
    expect(stages).toHaveLength(1);
    const props = stages[0]!.Properties!;
    expect(props.StageName).toBe('$default');
    expect(props.AutoDeploy).toBe(true);
    expect(props.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
  });

  it('writes one JSON access log line per request with request id, route, status, tenant and latency; never bodies, headers, query strings or paths as sent', () => {
    const settings = stages[0]!.Properties!.AccessLogSettings;
    const logGroup = resourcesOf(template, 'AWS::Logs::LogGroup')[refId(settings.DestinationArn)!];
    expect(logGroup?.Properties?.RetentionInDays).toBe(365);
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      clientId: '$context.authorizer.claims.client_id',
      responseLatency: '$context.responseLatency',
    });
    expect(settings.Format).not.toMatch(/body|requestOverride|header\.|querystring/i);
    // The route key names the route by its template; the path as sent may carry an SSN in an id's place.
    expect(settings.Format).not.toContain('$context.path');
  });

  it('outputs the API URL', () => {
    template.hasOutput('ApiUrl', {});
  });

  it('outputs the table’s name (TableName), which the operator commands find by the stack’s name', () => {
    const tables = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));
    expect(tables).toHaveLength(1);
    expect(refId(template.findOutputs('TableName').TableName?.Value)).toBe(tables[0]);
  });
});
