import { readFile } from 'node:fs/promises';
import type { HttpResponse } from '../gateway/apigw-response';
import type { LocalEndpoint } from '../gateway/local-endpoints';

// The sandbox console (docs/console.md): static files beside this module, served by
// `npm start` at CONSOLE_PATH. No build step and nothing from elsewhere: the page's script
// uses the public API with a token from the local token endpoint, like a partner's code,
// and the runtime's own dead-letter endpoints (lib/local/dead-letters/).

export const CONSOLE_PATH = '/console';

/** Each path the page loads, and its file here. Exact paths: nothing else under /console is served. */
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  [CONSOLE_PATH]: { file: 'index.html', type: 'text/html; charset=utf-8' },
  [`${CONSOLE_PATH}/console.js`]: { file: 'console.js', type: 'text/javascript; charset=utf-8' },
  [`${CONSOLE_PATH}/api.js`]: { file: 'api.js', type: 'text/javascript; charset=utf-8' },
  [`${CONSOLE_PATH}/dom.js`]: { file: 'dom.js', type: 'text/javascript; charset=utf-8' },
  [`${CONSOLE_PATH}/views.js`]: { file: 'views.js', type: 'text/javascript; charset=utf-8' },
  [`${CONSOLE_PATH}/dead-letters.js`]: { file: 'dead-letters.js', type: 'text/javascript; charset=utf-8' },
  [`${CONSOLE_PATH}/console.css`]: { file: 'console.css', type: 'text/css; charset=utf-8' },
  [`${CONSOLE_PATH}/icon.svg`]: { file: 'icon.svg', type: 'image/svg+xml' },
};

/**
 * The page shows data a partner sent (names, URLs), so a slip into markup would run it as
 * script: only this origin's files may run or load, no inline script or style, no framing,
 * no form posting elsewhere. `no-store`: an edited file shows on the next reload.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function consoleEndpoints(): LocalEndpoint[] {
  return Object.entries(FILES).map(([path, { file, type }]) => ({
    method: 'GET',
    path,
    id: 'Console',
    // Read on every request, so a change to the page needs no restart of npm start.
    serve: async (): Promise<HttpResponse> => ({
      statusCode: 200,
      headers: { 'content-type': type, ...CONSOLE_HEADERS },
      body: await readFile(new URL(file, import.meta.url)),
    }),
  }));
}
