import { describe, expect, it } from 'vitest';
import {
  buildEvent,
  claimsToStrings,
  collectHeaders,
  formatRequestTime,
  type GatewayRequest,
  isTextContentType,
  newRequestId,
  parseQueryString,
} from '#lib/local/gateway/apigw-event';

const request = (overrides: Partial<GatewayRequest> = {}): GatewayRequest => ({
  method: 'POST',
  target: '/verify/accounts/acc%201/control?x=1&x=2',
  rawHeaders: ['Host', '127.0.0.1:3000', 'Content-Type', 'application/json', 'X-Trace', 'a', 'x-trace', 'b'],
  body: Buffer.from('{"code":"0000"}'),
  sourceIp: '127.0.0.1',
  httpVersion: '1.1',
  localPort: 3000,
  ...overrides,
});

const context = {
  route: { method: 'POST', path: '/verify/accounts/{id}/control' } as const,
  pathParameters: { id: 'acc 1' },
  claims: { sub: 'acme', client_id: 'acme', exp: 1_700_000_000, scope: 'write:verify-accounts' },
  requestId: 'JTHoQgcFoAMESmw=',
  receivedAt: new Date('2020-03-12T19:03:58.123Z'),
};

describe('API Gateway v2 event building', () => {
  it('builds the payload-2.0 event of a JWT-authorized route', () => {
    const event = buildEvent(request(), context);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /verify/accounts/{id}/control',
      rawPath: '/verify/accounts/acc%201/control',
      rawQueryString: 'x=1&x=2',
      queryStringParameters: { x: '1,2' },
      pathParameters: { id: 'acc 1' },
      body: '{"code":"0000"}',
      isBase64Encoded: false,
      headers: {
        host: '127.0.0.1:3000',
        'content-type': 'application/json',
        'x-trace': 'a,b',
        'x-forwarded-proto': 'http',
      },
      requestContext: {
        domainName: '127.0.0.1:3000',
        http: {
          method: 'POST',
          path: '/verify/accounts/acc%201/control',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: '',
        },
        requestId: 'JTHoQgcFoAMESmw=',
        routeKey: 'POST /verify/accounts/{id}/control',
        stage: '$default',
        time: '12/Mar/2020:19:03:58 +0000',
        timeEpoch: 1_584_039_838_123,
        authorizer: { jwt: { claims: { sub: 'acme', client_id: 'acme', exp: '1700000000' }, scopes: null } },
      },
    });
    expect(event.headers['x-amzn-trace-id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  });

  it('leaves out the optional fields a bare request does not have', () => {
    const event = buildEvent(request({ method: 'GET', target: '/verify/accounts', body: Buffer.alloc(0) }), {
      ...context,
      route: { method: 'GET', path: '/verify/accounts' },
      pathParameters: {},
    });
    for (const field of ['queryStringParameters', 'pathParameters', 'body', 'cookies'] as const) {
      expect(event).not.toHaveProperty(field);
    }
    expect(event.rawQueryString).toBe('');
    expect(event.isBase64Encoded).toBe(false);
  });

  it('base64-encodes bodies of non-text content types, including form posts and none', () => {
    const body = Buffer.from('a=1');
    for (const type of ['application/x-www-form-urlencoded', 'application/octet-stream', undefined]) {
      const rawHeaders = type ? ['Content-Type', type] : [];
      const event = buildEvent(request({ rawHeaders, body }), context);
      expect(event).toMatchObject({ body: body.toString('base64'), isBase64Encoded: true });
    }
  });

  it('treats text/*, JSON, XML and JavaScript as text', () => {
    expect(
      ['text/plain', 'application/json; charset=utf-8', 'Application/XML', 'application/javascript'].map(
        isTextContentType,
      ),
    ).toEqual([true, true, true, true]);
    expect(isTextContentType('application/problem+json')).toBe(false);
  });

  it('lower-cases header names, joins repeats with "," and moves cookies out of the headers', () => {
    expect(collectHeaders(['Accept', 'a', 'ACCEPT', 'b', 'Cookie', 'x=1; y=2', 'cookie', 'z=3'])).toEqual({
      headers: { accept: 'a,b' },
      cookies: ['x=1', 'y=2', 'z=3'],
    });
  });

  it('decodes query values and joins repeated parameters with ","', () => {
    expect(parseQueryString('status=valid&status=closed&name=Jane%20Doe&plus=a+b&flag')).toEqual({
      status: 'valid,closed',
      name: 'Jane Doe',
      plus: 'a b',
      flag: '',
    });
    expect(parseQueryString('')).toBeUndefined();
  });

  it('hands every claim on as a string', () => {
    expect(claimsToStrings({ exp: 1, admin: true, groups: ['a', 'b'], nested: { k: 1 }, sub: 'x' })).toEqual({
      exp: '1',
      admin: 'true',
      groups: '[a b]',
      nested: '{"k":1}',
      sub: 'x',
    });
  });

  it('makes unique request ids shaped like API Gateway ones', () => {
    const ids = new Set(Array.from({ length: 100 }, newRequestId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9+/]{15}=$/);
  });

  it('formats the request time like the access log', () => {
    expect(formatRequestTime(new Date('2024-01-05T03:04:05Z'))).toBe('05/Jan/2024:03:04:05 +0000');
  });
});
