import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PERSON_ALL, SUBSCRIBE_ALL } from '#domain/webhook-configuration';
import { EVENT_TYPES } from '#functions/event-catalogue/kinds';
import { CONSOLE_PATH, consoleEndpoints } from '#lib/local/console/console-endpoints';

/**
 * The console's files as the local gateway serves them, and static guards on what they
 * contain. The page's behaviour is tested in Chromium (test/integration/console/).
 */
const CONSOLE_DIR = new URL('../../../../lib/local/console/', import.meta.url);
const endpoints = consoleEndpoints();

async function get(path: string) {
  const endpoint = endpoints.find((candidate) => candidate.method === 'GET' && candidate.path === path);
  if (!endpoint) throw new Error(`nothing served at ${path}`);
  const response = await endpoint.serve({
    headers: {},
    query: new URLSearchParams(),
    body: Buffer.alloc(0),
    baseUrl: 'http://127.0.0.1:3000',
  });
  return { ...response, text: response.body.toString('utf8') };
}

const page = readFileSync(new URL('index.html', CONSOLE_DIR), 'utf8');
const scripts = readdirSync(CONSOLE_DIR)
  .filter((file) => file.endsWith('.js'))
  .map((file) => ({ file, source: readFileSync(new URL(file, CONSOLE_DIR), 'utf8') }));

describe('sandbox console files (npm start, GET /console)', () => {
  it('serves the page at /console with a strict Content-Security-Policy (this origin only, no inline script) and nosniff', async () => {
    const response = await get(CONSOLE_PATH);

    expect(CONSOLE_PATH).toBe('/console');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|data:|https?:/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.text).toBe(page);
  });

  it('serves every script, stylesheet and icon the page or a script loads, with its type and the same headers, and nothing else', async () => {
    const referenced = [
      ...[...page.matchAll(/(?:src|href)="(\/console\/[^"]+)"/g)].map((match) => match[1] as string),
      ...scripts.flatMap(({ source }) =>
        [...source.matchAll(/from '\.\/([^']+)'/g)].map((match) => `${CONSOLE_PATH}/${match[1]}`),
      ),
    ];
    const types: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      svg: 'image/svg+xml',
    };

    expect(new Set(endpoints.map((endpoint) => endpoint.path))).toEqual(new Set([CONSOLE_PATH, ...referenced]));
    for (const path of new Set(referenced)) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type'], path).toBe(types[path.split('.').pop() ?? '']);
      expect(response.headers['x-content-type-options'], path).toBe('nosniff');
      expect(response.headers['content-security-policy'], path).toBeDefined();
    }
  });

  it('has no inline script, event handler or style in the page (the policy would refuse them)', () => {
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/\son[a-z]+=/i);
    expect(page).not.toMatch(/\sstyle=|<style/i);
  });

  it('never turns data into markup or code in its scripts: no innerHTML, outerHTML, insertAdjacentHTML, document.write, eval', () => {
    for (const { file, source } of scripts) {
      expect(source, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
    }
  });

  it('offers exactly the service’s event kinds: every kind, person_all and subscribe_all to subscribe to; every kind as a test webhook', () => {
    const subscribable = [...page.matchAll(/name="event_types" value="([a-z_]+)"/g)].map((match) => match[1]);
    const testable = [
      ...(/<select name="event_type">([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '').matchAll(/<option>([a-z_]+)</g),
    ].map((match) => match[1]);

    expect(new Set(subscribable)).toEqual(new Set([SUBSCRIBE_ALL, PERSON_ALL, ...EVENT_TYPES]));
    expect(new Set(testable)).toEqual(new Set(EVENT_TYPES));
  });
});
