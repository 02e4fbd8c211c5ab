import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, type ConsolePage, openConsole } from '#test/support/console-page';

/**
 * docs/console.md#opening-it: the console opens on the tenant in its box (`dev`, the tenant
 * `npm start` prints a token for), with no click: it takes a token for it from the token
 * endpoint and reads its sections with it. **Get token** stays, for another tenant.
 * console.js runs here on a fake page (test/support/console-page.ts); the Chromium test
 * opens the real one.
 */
let page: ConsolePage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
});

const TENANT_SECTIONS = ['/webhooks/configurations', '/events?size=10', '/verify/accounts?size=20', '/persons?size=20'];

/** The sections' reads sent with `token`. */
const readsWith = (page: ConsolePage, token: string) =>
  page.requests
    .filter((request) => request.authorization === `Bearer ${token}`)
    .map((request) => `${request.method} ${request.path}`);

const tokenRequests = (page: ConsolePage) =>
  page.requests
    .filter((request) => request.path === '/oauth2/token')
    .map((request) => Object.fromEntries(new URLSearchParams(request.body)));

describe('sandbox console on opening', () => {
  it('takes a token for the tenant in the box (dev) at once, with no click, and reads its sections with it', async () => {
    page = await openConsole();
    const opened = page;

    await vi.waitFor(() => {
      for (const path of TENANT_SECTIONS) expect(readsWith(opened, 'token-for-dev')).toContain(`GET ${path}`);
    });
    expect(tokenRequests(opened)).toEqual([{ grant_type: 'client_credentials', client_id: 'dev' }]);
    expect(
      opened.requests.filter((request) => request.path !== '/oauth2/token' && request.path !== '/local/dead-letters'),
    ).toEqual(opened.requests.filter((request) => request.authorization === 'Bearer token-for-dev'));
    expect(opened.byId('workspace').disabled).toBe(false);
    expect(opened.byId('session').text()).toMatch(/^Tenant dev: token valid until /);
  });

  it('keeps Get token for another tenant: its token replaces the first, and the sections are read with it', async () => {
    page = await openConsole();
    const opened = page;
    await vi.waitFor(() => expect(readsWith(opened, 'token-for-dev')).toContain('GET /persons?size=20'));

    opened.byId('connect').field('tenant').value = 'acme';
    await opened.byId('connect').dispatch('submit');

    await vi.waitFor(() => {
      for (const path of TENANT_SECTIONS) expect(readsWith(opened, 'token-for-acme')).toContain(`GET ${path}`);
    });
    expect(tokenRequests(opened).map((request) => request.client_id)).toEqual(['dev', 'acme']);
    expect(opened.byId('session').text()).toMatch(/^Tenant acme: token valid until /);
  });

  it('shows the token endpoint’s refusal on opening, and reads nothing of a tenant', async () => {
    const refuse: Answer = (request) =>
      request.path === '/oauth2/token'
        ? { status: 400, body: { error: 'invalid_request', error_description: 'the Host is not loopback' } }
        : undefined;
    page = await openConsole(refuse);
    const opened = page;

    await vi.waitFor(() => expect(opened.byId('session').text()).toBe('400 invalid_request: the Host is not loopback'));
    expect(opened.byId('session').className).toBe('error');
    expect(opened.byId('workspace').disabled).toBe(true);
    expect(opened.requests.filter((request) => TENANT_SECTIONS.some((path) => request.path === path))).toEqual([]);
  });
});
