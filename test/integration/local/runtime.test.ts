import { request as httpRequest } from 'node:http';
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import type { LogLevel } from '#lib/local/log';
import type { LocalRuntime } from '#lib/local/runtime';
import { TABLE_SCHEMA } from '#shared/db/schema';
import { FIXTURE_ROUTES } from '../fixtures/routes';
import { api, startTestRuntime } from '../harness';

interface Echo {
  event: APIGatewayProxyEventV2WithJWTAuthorizer;
  context: { functionName: string; awsRequestId: string; invokedFunctionArn: string; remainingTimeInMillis: number };
}

const logged: { level: LogLevel; message: string; details?: Record<string, unknown> }[] = [];
let runtime: LocalRuntime;
let token: string;

beforeAll(async () => {
  runtime = await startTestRuntime({
    routes: FIXTURE_ROUTES,
    log: (level, message, details) => logged.push({ level, message, details }),
  });
  token = await runtime.mintToken('acme', ['read:verify-accounts', 'write:verify-accounts']);
});

afterAll(() => runtime?.stop());

const UNAUTHORIZED = { message: 'Unauthorized' };

describe('JWT authorizer (as an HTTP API JWT authorizer)', () => {
  it('answers 401 with API Gateway body when the Authorization header is missing', async () => {
    const res = await api(runtime).get('/echo/1');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(res.headers['apigw-requestid']).toMatch(/^[A-Za-z0-9+/]{15}=$/);
  });

  it('answers 401 to a token signed by a key the issuer does not publish', async () => {
    const stranger = await LocalIssuer.generate();
    const res = await api(runtime, await stranger.mint({ tenant: 'acme' })).get('/echo/1');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 to a token whose signature does not match its content', async () => {
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodePayload(token), client_id: 'other' })).toString('base64url');
    const res = await api(runtime, `${header}.${forged}.${signature}`).get('/echo/1');
    expect(res.status).toBe(401);
  });

  it.each([
    ['expired', { issuedAt: nowSeconds() - 7_200, ttlSeconds: 3_600 }],
    ['for another audience', { overrides: { aud: 'someone-else' } }],
    ['from another issuer', { overrides: { iss: 'https://cognito-idp.us-east-1.amazonaws.com/elsewhere' } }],
    ['not valid yet', { overrides: { nbf: nowSeconds() + 3_600 } }],
    ['without aud and with a client_id that is no audience', { overrides: { aud: undefined } }],
  ])('answers 401 to a token %s', async (_case, options) => {
    const res = await api(runtime, await runtime.issuer.mint({ tenant: 'acme', ...options })).get('/echo/1');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('answers 403 with API Gateway body when the token has none of the route scopes', async () => {
    const res = await api(runtime, await runtime.mintToken('acme', ['read:persons'])).get('/echo/1');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
  });

  it('lets a token through that holds one of several route scopes, as AWS does', async () => {
    const res = await api(runtime, await runtime.mintToken('acme', ['write:persons'])).get('/either');
    expect(res.status).toBe(200);
  });

  it('accepts the token without the Bearer prefix, as the identity source allows', async () => {
    const res = await api(runtime).get('/echo/1', { headers: { authorization: token } });
    expect(res.status).toBe(200);
  });

  it('accepts a token from POST /oauth2/token, asked for as from Cognito (client credentials, Basic auth), with the client id as tenant', async () => {
    const answer = await fetch(`${runtime.url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('acme:any-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'verify-service/read:verify-accounts' }),
    });
    expect(answer.status).toBe(200);
    const { access_token } = (await answer.json()) as { access_token: string };

    const res = await api(runtime, access_token).get<Echo>('/echo/1');
    expect(res.status).toBe(200);
    expect(res.body.event.requestContext.authorizer.jwt.claims).toMatchObject({ client_id: 'acme' });
    expect((await api(runtime, access_token).post('/reply', {})).status).toBe(403);
  });
});

describe('route selection', () => {
  it('answers 404 {"message":"Not Found"} to an unknown path, before any authorization', async () => {
    const res = await api(runtime).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found' });
  });

  it('answers 404 to a known path with another method', async () => {
    const res = await api(runtime, token).request('DELETE', '/echo/1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found' });
  });

  it('does not let {param} span two segments or match an empty one', async () => {
    expect((await api(runtime, token).get('/echo/a/b')).status).toBe(404);
    expect((await api(runtime, token).get('/echo/')).status).toBe(404);
  });
});

describe('the event a handler receives (payload format 2.0)', () => {
  it('carries the request as API Gateway shapes it', async () => {
    const res = await rawRequest('GET', '/echo/acc%2F1%20x?status=valid&size=5&status=closed&q=a%2Bb&empty=', {
      authorization: `Bearer ${token}`,
      'X-Repeated': ['one', 'two'],
      'User-Agent': 'local-runtime-test',
      Cookie: 'a=1; b=2',
    });
    expect(res.status).toBe(200);
    const { event, context } = JSON.parse(res.body) as Echo;

    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /echo/{id}',
      rawPath: '/echo/acc%2F1%20x',
      rawQueryString: 'status=valid&size=5&status=closed&q=a%2Bb&empty=',
      queryStringParameters: { status: 'valid,closed', size: '5', q: 'a+b', empty: '' },
      pathParameters: { id: 'acc/1 x' },
      cookies: ['a=1', 'b=2'],
      isBase64Encoded: false,
    });
    expect(event.body).toBeUndefined();
    expect(event.headers).toMatchObject({
      'x-repeated': 'one,two',
      'user-agent': 'local-runtime-test',
      'x-forwarded-for': '127.0.0.1',
    });
    expect(event.headers.cookie).toBeUndefined();
    expect(Object.keys(event.headers).every((name) => name === name.toLowerCase())).toBe(true);

    const { requestContext } = event;
    expect(requestContext).toMatchObject({
      accountId: expect.any(String),
      apiId: expect.any(String),
      domainName: `127.0.0.1:${runtime.port}`,
      domainPrefix: '127',
      http: {
        method: 'GET',
        path: '/echo/acc%2F1%20x',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'local-runtime-test',
      },
      requestId: res.headers['apigw-requestid'],
      routeKey: 'GET /echo/{id}',
      stage: '$default',
      time: expect.stringMatching(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/),
      timeEpoch: expect.any(Number),
    });
    expect(requestContext.authorizer.jwt.scopes).toBeNull();
    const { claims } = requestContext.authorizer.jwt;
    expect(claims).toMatchObject({
      client_id: 'acme',
      sub: 'acme',
      token_use: 'access',
      scope: 'read:verify-accounts write:verify-accounts',
    });
    expect(Object.values(claims).every((value) => typeof value === 'string')).toBe(true);
    expect(claims.exp).toMatch(/^\d+$/);

    expect(context).toMatchObject({
      functionName: 'EchoGet',
      invokedFunctionArn: expect.stringContaining(':function:EchoGet'),
    });
    expect(context.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context.remainingTimeInMillis).toBeGreaterThan(0);
  });

  it('has the route key of a nested template and a JSON body as text', async () => {
    const res = await api(runtime, token).post<Echo>('/echo/abc/control', { code: '0000' });
    expect(res.body.event).toMatchObject({
      routeKey: 'POST /echo/{id}/control',
      pathParameters: { id: 'abc' },
      body: '{"code":"0000"}',
      isBase64Encoded: false,
    });
    expect(res.body.event.queryStringParameters).toBeUndefined();
  });

  it('base64-encodes a body whose content type is not text', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const res = await api(runtime, token).post<Echo>('/echo/abc/control', bytes, {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.body.event.isBase64Encoded).toBe(true);
    expect(Buffer.from(res.body.event.body ?? '', 'base64')).toEqual(bytes);
  });
});

describe('the handler result, back to HTTP', () => {
  const reply = (result: unknown) => api(runtime, token).post('/reply', { result });

  it('sends status, headers, cookies and body', async () => {
    const res = await reply({
      statusCode: 201,
      headers: { 'X-Custom': 'yes', 'content-type': 'application/json' },
      cookies: ['s=1; Path=/'],
      body: '{"ok":true}',
    });
    expect(res.status).toBe(201);
    expect(res.headers).toMatchObject({ 'x-custom': 'yes', 'set-cookie': 's=1; Path=/' });
    expect(res.body).toEqual({ ok: true });
    expect(res.headers['apigw-requestid']).toBeDefined();
  });

  it('decodes a base64 body', async () => {
    const body = Buffer.from('héllo').toString('base64');
    const res = await reply({
      statusCode: 200,
      headers: { 'content-type': 'text/plain' },
      body,
      isBase64Encoded: true,
    });
    expect(res.body).toBe('héllo');
  });

  it('takes a result without statusCode as a 200 JSON body, as API Gateway infers', async () => {
    const res = await reply({ hello: 'world' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hello: 'world' });
  });

  it.each([
    ['a status that is no number', { statusCode: 'ok' }],
    ['a body that is no string', { statusCode: 200, body: { not: 'a string' } }],
    ['nothing', undefined],
  ])('answers 500 with API Gateway body to %s', async (_case, result) => {
    const res = await reply(result);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal Server Error' });
  });

  it('answers 500 with API Gateway body when the handler throws, and logs the cause', async () => {
    const res = await api(runtime, token).get('/throws');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal Server Error' });
    const entry = logged.find(
      (line) => line.level === 'error' && line.details?.requestId === res.headers['apigw-requestid'],
    );
    expect(String(entry?.details?.error)).toContain('fixture failure');
  });

  it('writes one access line per request: method, path with ids hidden, status, latency, route and tenant', async () => {
    const res = await reply({ statusCode: 201, body: '' });
    expect(res.status).toBe(201);
    const lines = logged.filter((line) => line.details?.requestId === res.headers['apigw-requestid']);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('info');
    expect(lines[0]?.message).toMatch(/^POST \/reply -> 201 \d+ ms$/);
    const entry = lines[0];
    expect(entry?.details).toMatchObject({ route: expect.any(String), tenant: 'acme' });
  });

  it('answers 413 to a body over 10 MB', async () => {
    const res = await api(runtime, token).post('/reply', 'x'.repeat(10 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
  });
});

describe('DynamoDB Local behind the handlers', () => {
  it('gives handlers the table through their environment', async () => {
    const res = await api(runtime, token).post('/probe', 'item-1', { headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      table: runtime.tableName,
      item: { pk: 'PROBE', sk: 'item-1', written_by: 'table-probe' },
    });
  });

  it('creates the table with the stream, the indexes and TTL of the schema', async () => {
    const client = new DynamoDBClient({ endpoint: runtime.dynamoEndpoint });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: runtime.tableName }));
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: runtime.tableName }));
    client.destroy();
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(Table?.LatestStreamArn).toBeDefined();
    const indexes = Object.values(TABLE_SCHEMA.indexes);
    expect(
      Table?.GlobalSecondaryIndexes?.map((index) => [
        index.IndexName,
        index.Projection?.ProjectionType,
        index.Projection?.NonKeyAttributes,
      ]),
    ).toEqual(indexes.map((index) => [index.name, 'INCLUDE', [...index.nonKeyAttributes]]));
    expect(indexes.length).toBeGreaterThan(0);
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
  });
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function decodePayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** node:http rather than fetch, which merges repeated headers before they leave. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${runtime.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
