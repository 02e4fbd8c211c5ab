import { describe, expect, it } from 'vitest';
import { deployedRoutes, ROUTES, routeKey } from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import { OPERATOR_SCOPES, RESOURCE_SERVER_ID, SCOPES, SERVICE_SCOPES } from '#shared/scopes';
import { buildApp, ENV, refId, resourcesOf, synthTemplate } from './harness';

const authorizerOf = (template: ReturnType<typeof synthTemplate>) =>
  Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Authorizer'))[0]!.Properties!;
const scopesByRoute = (template: ReturnType<typeof synthTemplate>) =>
  Object.fromEntries(
    Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => [
      r.Properties?.RouteKey,
      r.Properties?.AuthorizationScopes,
    ]),
  );
/** JWT_SCOPE_PREFIX of every API function: what the event log's handlers strip from the token's scopes. */
const scopePrefixes = (template: ReturnType<typeof synthTemplate>) => [
  ...new Set(
    Object.values(resourcesOf(template, 'AWS::Lambda::Function'))
      .filter((f) => deployedRoutes(ROUTES).some((route) => f.Properties?.Description === routeKey(route)))
      .map((f) => f.Properties?.Environment?.Variables?.[CONFIG_ENV.scopePrefix]),
  ),
];
const cognitoTypes = (template: ReturnType<typeof synthTemplate>) =>
  Object.values(template.toJSON().Resources as Record<string, { Type: string }>)
    .map((r) => r.Type)
    .filter((t) => t.startsWith('AWS::Cognito::'));

describe('Cognito identity (default)', () => {
  const partners = [{ name: 'acme', scopes: ['read:verify-accounts'] }, { name: 'globex' }];
  // A JSON string, as `cdk synth -c partners='[...]'` passes it.
  const template = synthTemplate({ context: { partners: JSON.stringify(partners) } });
  const clients = resourcesOf(template, 'AWS::Cognito::UserPoolClient');
  const clientByName = (name: string) => Object.entries(clients).find(([, c]) => c.Properties?.ClientName === name)!;

  it('creates a user pool that allows no self sign-up', () => {
    const pools = Object.values(resourcesOf(template, 'AWS::Cognito::UserPool'));
    expect(pools).toHaveLength(1);
    expect(pools[0]!.Properties?.AdminCreateUserConfig).toEqual({ AllowAdminCreateUserOnly: true });
  });

  it('declares every contract scope and the operators’ on the resource server', () => {
    const servers = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolResourceServer'));
    expect(servers).toHaveLength(1);
    expect(servers[0]!.Properties?.Identifier).toBe(RESOURCE_SERVER_ID);
    expect(servers[0]!.Properties?.Scopes.map((s: { ScopeName: string }) => s.ScopeName)).toEqual([...SERVICE_SCOPES]);
  });

  it('gives each partner one client-credentials app client with the scopes it bought (all by default)', () => {
    expect(Object.keys(clients)).toHaveLength(partners.length);
    const scopeNames = (name: string) =>
      clientByName(name)[1].Properties?.AllowedOAuthScopes.map(
        (s: { 'Fn::Join': [string, unknown[]] }) => s['Fn::Join'][1][1],
      );
    expect(scopeNames('acme')).toEqual(['/read:verify-accounts']);
    expect(scopeNames('globex')).toEqual(SCOPES.map((s) => `/${s}`));
    for (const client of Object.values(clients)) {
      expect(client.Properties).toMatchObject({
        AllowedOAuthFlows: ['client_credentials'],
        AllowedOAuthFlowsUserPoolClient: true,
        GenerateSecret: true,
      });
    }
  });

  it('tells every API function the scope prefix Cognito writes, so the event log reads the token’s scopes', () => {
    expect(scopePrefixes(template)).toEqual([`${RESOURCE_SERVER_ID}/`]);
  });

  it('derives the Cognito domain prefix from stack name and account', () => {
    const domain = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolDomain'))[0]!;
    expect(domain.Properties?.Domain).toBe(`verifyservice-${ENV.account}`);
  });

  it('takes the Cognito domain prefix from context "cognitoDomainPrefix" when given', () => {
    const custom = synthTemplate({ context: { cognitoDomainPrefix: 'acme-verify-sandbox' } });
    const domain = Object.values(resourcesOf(custom, 'AWS::Cognito::UserPoolDomain'))[0]!;
    expect(domain.Properties?.Domain).toBe('acme-verify-sandbox');
  });

  it("makes the authorizer trust the pool's issuer, with the partners' client ids as audience", () => {
    const authorizer = authorizerOf(template);
    const [poolId] = Object.keys(resourcesOf(template, 'AWS::Cognito::UserPool'));
    expect(authorizer.JwtConfiguration.Issuer).toEqual({
      'Fn::Join': ['', [`https://cognito-idp.${ENV.region}.amazonaws.com/`, { Ref: poolId }]],
    });
    expect(authorizer.JwtConfiguration.Audience.map(refId).sort()).toEqual(
      [clientByName('acme')[0], clientByName('globex')[0]].sort(),
    );
  });

  it('outputs the token URL and each partner client id', () => {
    template.hasOutput('TokenUrl', {});
    template.hasOutput('ClientIdacme', { Value: { Ref: clientByName('acme')[0] } });
  });

  it('refuses to synthesize without partners, since the authorizer needs an audience', () => {
    expect(() => buildApp({ context: { partners: [] } })).toThrow(/at least one partner/);
  });

  it('refuses a partner scope that is not in the contract', () => {
    expect(() => buildApp({ context: { partners: [{ name: 'acme', scopes: ['admin'] }] } })).toThrow(/scopes/);
  });

  it("adds a partner's aliases (further client ids of its tenant) to the authorizer's audience", () => {
    const aliased = synthTemplate({ context: { partners: [{ name: 'acme', aliases: ['rotated-acme'] }] } });
    const [clientId] = Object.keys(resourcesOf(aliased, 'AWS::Cognito::UserPoolClient'));
    expect(authorizerOf(aliased).JwtConfiguration.Audience).toEqual([{ Ref: clientId }, 'rotated-acme']);
  });

  it('refuses clientIds in Cognito mode, since Cognito assigns app client ids', () => {
    expect(() => buildApp({ context: { partners: [{ name: 'acme', clientIds: ['x1'] }] } })).toThrow(
      /clientIds.*aliases/,
    );
  });

  it('refuses a client id listed twice, or one that is not printable ASCII without spaces', () => {
    const twice = [
      { name: 'acme', aliases: ['x1'] },
      { name: 'globex', aliases: ['x1'] },
    ];
    expect(() => buildApp({ context: { partners: twice } })).toThrow(/"x1" is listed twice/);
    expect(() => buildApp({ context: { partners: [{ name: 'acme', aliases: ['has space'] }] } })).toThrow(/aliases/);
    expect(() => buildApp({ context: { partners: [{ name: 'acme', aliases: 'x1' }] } })).toThrow(/aliases/);
  });
});

describe('operators (context "operators"): the review:screening scope, never a partner’s', () => {
  const partners = [{ name: 'acme' }, { name: 'globex', scopes: ['read:persons'] }];
  const operators = [{ name: 'compliance', aliases: ['rotated-compliance'] }];
  const template = synthTemplate({ context: { partners, operators: JSON.stringify(operators) } });
  const clients = Object.entries(resourcesOf(template, 'AWS::Cognito::UserPoolClient'));
  const scopeNames = (client: (typeof clients)[number]) =>
    client[1].Properties?.AllowedOAuthScopes.map((s: { 'Fn::Join': [string, unknown[]] }) => s['Fn::Join'][1][1]);
  const operatorClient = clients.find(([, c]) => c.Properties?.ClientName === 'compliance')!;

  it('gives no partner client an operator scope, whatever it bought', () => {
    const partnerClients = clients.filter(([, c]) => c.Properties?.ClientName !== 'compliance');
    expect(partnerClients).toHaveLength(partners.length);
    for (const client of partnerClients) {
      for (const scope of OPERATOR_SCOPES) expect(scopeNames(client)).not.toContain(`/${scope}`);
    }
  });

  it('gives each operator a client-credentials app client holding the operator scopes and nothing else', () => {
    expect(scopeNames(operatorClient)).toEqual(OPERATOR_SCOPES.map((s) => `/${s}`));
    expect(operatorClient[1].Properties).toMatchObject({
      AllowedOAuthFlows: ['client_credentials'],
      GenerateSecret: true,
    });
  });

  it('lets the operator’s client ids through the authorizer, and maps them to the operator’s own name', () => {
    expect(authorizerOf(template).JwtConfiguration.Audience).toContainEqual({ Ref: operatorClient[0] });
    expect(authorizerOf(template).JwtConfiguration.Audience).toContain('rotated-compliance');
    template.hasOutput('OperatorClientIdcompliance', { Value: { Ref: operatorClient[0] } });
  });

  it('protects the review routes with review:screening alone', () => {
    const routes = scopesByRoute(template);
    expect(routes['GET /screening/hits']).toEqual([`${RESOURCE_SERVER_ID}/review:screening`]);
    expect(routes['POST /screening/hits/{id}/decision']).toEqual([`${RESOURCE_SERVER_ID}/review:screening`]);
  });

  it('refuses an operator scope among a partner’s, saying where operators go', () => {
    expect(() =>
      buildApp({ context: { partners: [{ name: 'acme', scopes: ['read:persons', 'review:screening'] }] } }),
    ).toThrow(/"review:screening" is an operator scope, never granted to a partner.*"operators"/);
  });

  it('refuses an operator named as a partner, a setting operators do not have, and a client id of both', () => {
    expect(() => buildApp({ context: { partners, operators: [{ name: 'acme' }] } })).toThrow(/also a partner/);
    expect(() => buildApp({ context: { partners, operators: [{ name: 'ops', scopes: ['read:persons'] }] } })).toThrow(
      /scopes is not an operator setting/,
    );
    expect(() =>
      buildApp({
        context: { partners: [{ name: 'acme', aliases: ['x1'] }], operators: [{ name: 'ops', aliases: ['x1'] }] },
      }),
    ).toThrow(/"x1" is listed twice/);
  });
});

describe('external issuer (context jwtIssuer + jwtAudience)', () => {
  const issuer = 'https://login.example.com/oauth2/default';

  it('creates no Cognito resource and trusts the given issuer and audience', () => {
    const template = synthTemplate({ context: { jwtIssuer: issuer, jwtAudience: 'api://verify, partner-portal' } });
    expect(cognitoTypes(template)).toEqual([]);
    expect(authorizerOf(template).JwtConfiguration).toEqual({
      Issuer: issuer,
      Audience: ['api://verify', 'partner-portal'],
    });
    template.hasOutput('JwtIssuer', { Value: issuer });
  });

  it('requires bare route scopes unless jwtScopePrefix is given', () => {
    const template = synthTemplate({ context: { jwtIssuer: issuer, jwtAudience: ['api://verify'] } });
    expect(scopesByRoute(template)).toEqual(
      Object.fromEntries(deployedRoutes(ROUTES).map((r) => [routeKey(r), [...r.scopes]])),
    );
  });

  it('prefixes route scopes with jwtScopePrefix verbatim, and tells the API functions', () => {
    const template = synthTemplate({
      context: { jwtIssuer: issuer, jwtAudience: 'a', jwtScopePrefix: 'https://verify/' },
    });
    expect(scopePrefixes(template)).toEqual(['https://verify/']);
    expect(scopesByRoute(template)).toEqual(
      Object.fromEntries(deployedRoutes(ROUTES).map((r) => [routeKey(r), r.scopes.map((s) => `https://verify/${s}`)])),
    );
  });

  it('reads partners[].clientIds, as a JSON string too, and ignores partners without client ids', () => {
    const partners = [
      { name: 'acme', clientIds: ['0oa1acme'] },
      { name: 'initech', scopes: ['read:persons'] },
    ];
    const { stack } = buildApp({
      context: { jwtIssuer: issuer, jwtAudience: 'a', partners: JSON.stringify(partners) },
    });
    expect(stack.identity.tenantAliases).toEqual([{ clientId: '0oa1acme', tenant: 'acme' }]);
  });

  it('refuses an issuer without audience, or one that is not https', () => {
    expect(() => buildApp({ context: { jwtIssuer: issuer } })).toThrow(/jwtAudience/);
    expect(() => buildApp({ context: { jwtIssuer: 'http://insecure', jwtAudience: 'a' } })).toThrow(/https/);
  });
});
