import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { openApiDocument } from '#lib/openapi/document';
import { startTestRuntime } from '../harness';

/** `GET /openapi.json` on the local runtime: the generator's document, no token needed. */
let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
});
afterAll(() => runtime?.stop());

describe('GET /openapi.json', () => {
  it('answers the document npm run openapi prints, with this runtime as its server, to a request without a token', async () => {
    // No Authorization, no Service-Version: a viewer or a client generator asks like this.
    const res = await fetch(`${runtime.url}/openapi.json`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const { servers, ...served } = (await res.json()) as Record<string, unknown>;
    const { servers: _default, ...generated } = await openApiDocument();
    expect(served).toEqual(generated);
    expect(servers).toEqual([{ url: runtime.url, description: expect.any(String) }]);
  });

  it('is served on GET only; another method is no route', async () => {
    const res = await fetch(`${runtime.url}/openapi.json`, { method: 'POST' });

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found' });
  });
});
