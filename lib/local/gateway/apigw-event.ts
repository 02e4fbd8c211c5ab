import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { JWTPayload } from 'jose';
import { type RouteDefinition, routeKey } from '#lib/service/index';
import { LOCAL_ACCOUNT_ID } from '../aws-account';

// Builds the payload-format-2.0 event an HTTP API hands to a Lambda integration, with the
// quirks handlers can observe: headers lower-cased and repeated ones joined with `,`,
// cookies moved to `cookies`, repeated query parameters joined with `,`, absent (not
// empty) optional fields, claims flattened to strings, bodies of non-text types base64.

export const LOCAL_API_ID = 'local';

/** What the gateway keeps of an HTTP request (Node's `rawHeaders` keeps repeats and order). */
export interface GatewayRequest {
  readonly method: string;
  /** Request target as sent: path, then `?query` if any. */
  readonly target: string;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  readonly sourceIp: string;
  readonly httpVersion: string;
  readonly localPort: number;
}

export interface EventContext {
  readonly route: Pick<RouteDefinition, 'method' | 'path'>;
  readonly pathParameters: Record<string, string>;
  /** The token's claims; undefined on a route without an authorizer, whose event then has none. */
  readonly claims: JWTPayload | undefined;
  readonly requestId: string;
  readonly receivedAt: Date;
}

export function buildEvent(request: GatewayRequest, context: EventContext): APIGatewayProxyEventV2WithJWTAuthorizer {
  const { rawPath, rawQueryString } = splitTarget(request.target);
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  const epoch = context.receivedAt.getTime();
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${request.sourceIp}`
    : request.sourceIp;
  headers['x-forwarded-port'] = String(request.localPort);
  headers['x-forwarded-proto'] = 'http';
  headers['x-amzn-trace-id'] = `Root=1-${Math.floor(epoch / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
  const domainName = headers.host ?? `127.0.0.1:${request.localPort}`;
  const queryStringParameters = parseQueryString(rawQueryString);
  const hasPathParameters = Object.keys(context.pathParameters).length > 0;
  const binary = !isTextContentType(headers['content-type']);
  const key = routeKey(context.route);

  return {
    version: '2.0',
    routeKey: key,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 && { cookies }),
    headers,
    ...(queryStringParameters && { queryStringParameters }),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: LOCAL_API_ID,
      // An event of a route without an authorizer has no `authorizer` at all (the type insists).
      ...(context.claims
        ? { authorizer: { jwt: { claims: claimsToStrings(context.claims), scopes: null } } }
        : ({} as { authorizer: APIGatewayProxyEventV2WithJWTAuthorizer['requestContext']['authorizer'] })),
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: request.method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: context.requestId,
      routeKey: key,
      stage: '$default',
      time: formatRequestTime(context.receivedAt),
      timeEpoch: epoch,
    },
    ...(hasPathParameters && { pathParameters: { ...context.pathParameters } }),
    ...(request.body.length > 0 && { body: request.body.toString(binary ? 'base64' : 'utf8') }),
    isBase64Encoded: request.body.length > 0 && binary,
  };
}

/** API Gateway ids are 16 base64 characters, e.g. `JTHoQgcFoAMESmw=`. */
export const newRequestId = (): string => randomBytes(11).toString('base64');

export function splitTarget(target: string): { rawPath: string; rawQueryString: string } {
  const mark = target.indexOf('?');
  return mark < 0
    ? { rawPath: target, rawQueryString: '' }
    : { rawPath: target.slice(0, mark), rawQueryString: target.slice(mark + 1) };
}

export function collectHeaders(rawHeaders: readonly string[]): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    const value = rawHeaders[index + 1] as string;
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter(Boolean),
      );
    } else {
      headers[name] = name in headers ? `${headers[name]},${value}` : value;
    }
  }
  return { headers, cookies };
}

/** Values are decoded; a repeated parameter becomes one value joined with `,`. */
export function parseQueryString(rawQueryString: string): Record<string, string> | undefined {
  if (!rawQueryString) return undefined;
  const parameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    parameters[name] = name in parameters ? `${parameters[name]},${value}` : value;
  }
  return Object.keys(parameters).length > 0 ? parameters : undefined;
}

/**
 * The split measured on real HTTP APIs: only these arrive as text; everything else,
 * including a missing content type and form posts, arrives base64-encoded.
 */
export function isTextContentType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return false;
  return type.startsWith('text/') || ['application/json', 'application/xml', 'application/javascript'].includes(type);
}

/** The authorizer hands claims on as strings: numbers and booleans printed, arrays as `[a b]`. */
export function claimsToStrings(claims: JWTPayload): Record<string, string> {
  const flattened: Record<string, string> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) flattened[name] = `[${value.join(' ')}]`;
    else if (typeof value === 'object') flattened[name] = JSON.stringify(value);
    else flattened[name] = String(value);
  }
  return flattened;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `requestContext.time` uses the access-log format, e.g. `12/Mar/2020:19:03:58 +0000`. */
export function formatRequestTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}
