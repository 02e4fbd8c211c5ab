import { describe, expect, it } from 'vitest';
import { gatewayError, MalformedResultError, toHttpResponse } from '#lib/local/gateway/apigw-response';

describe('handler result to HTTP (payload format 2.0)', () => {
  it('copies status, headers (lower-cased, printed) and body', () => {
    const response = toHttpResponse({ statusCode: 201, headers: { 'X-Count': 3, 'X-Ok': true }, body: '{"a":1}' });
    expect(response).toEqual({
      statusCode: 201,
      headers: { 'x-count': '3', 'x-ok': 'true' },
      body: Buffer.from('{"a":1}'),
    });
  });

  it('turns cookies into set-cookie headers and decodes base64 bodies', () => {
    const body = Buffer.from([1, 2]).toString('base64');
    const response = toHttpResponse({ statusCode: 200, cookies: ['a=1', 'b=2'], body, isBase64Encoded: true });
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.body).toEqual(Buffer.from([1, 2]));
  });

  it('answers 200 JSON for a result without statusCode, as API Gateway infers', () => {
    expect(toHttpResponse({ id: 1 })).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"id":1}'),
    });
    expect(toHttpResponse('plain').body.toString()).toBe('plain');
  });

  it.each([
    ['nothing', undefined],
    ['a status out of range', { statusCode: 42 }],
    ['a status that is no integer', { statusCode: '200' }],
    ['an object body', { statusCode: 200, body: { a: 1 } }],
    ['headers that are no object', { statusCode: 200, headers: 'x' }],
    ['a header holding an object', { statusCode: 200, headers: { x: { y: 1 } } }],
    ['cookies that are no strings', { statusCode: 200, cookies: [1] }],
  ])('rejects %s as malformed', (_case, result) => {
    expect(() => toHttpResponse(result)).toThrow(MalformedResultError);
  });

  it("writes API Gateway's own error bodies byte for byte", () => {
    expect(gatewayError('unauthorized').body.toString()).toBe('{"message":"Unauthorized"}');
    expect(gatewayError('forbidden').body.toString()).toBe('{"message":"Forbidden"}');
    expect(gatewayError('notFound').body.toString()).toBe('{"message":"Not Found"}');
    expect(gatewayError('internalError')).toMatchObject({
      statusCode: 500,
      headers: { 'content-type': 'application/json' },
    });
    expect(gatewayError('internalError').body.toString()).toBe('{"message":"Internal Server Error"}');
  });
});
