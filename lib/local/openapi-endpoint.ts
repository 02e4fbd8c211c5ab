import type { OpenApiDocument } from '#lib/openapi/document';
import type { HttpResponse } from './gateway/apigw-response';
import type { LocalEndpoint } from './gateway/local-endpoints';

// `GET /openapi.json` on `npm start`: the OpenAPI document `npm run openapi` prints, with
// this runtime as its server, so a client or a viewer can be pointed at it. No token: the
// document describes the API, it holds no data. Generated on the first request, then kept
// (loaded then too: it imports every handler module, which `npm start` otherwise loads on
// a route's first request).

export const OPENAPI_PATH = '/openapi.json';

export function openApiEndpoint(): LocalEndpoint {
  let document: Promise<OpenApiDocument> | undefined;
  return {
    method: 'GET',
    path: OPENAPI_PATH,
    id: 'OpenApiDocument',
    async serve({ baseUrl }): Promise<HttpResponse> {
      document ??= import('#lib/openapi/document')
        .then(({ openApiDocument }) => openApiDocument())
        .catch((error: unknown) => {
          document = undefined;
          throw error;
        });
      const served = {
        ...(await document),
        servers: [{ url: baseUrl, description: 'This local runtime (`npm start`)' }],
      };
      return {
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(served), 'utf8'),
      };
    },
  };
}
