import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { setLogSink } from '#shared/logger';
import { chromiumPath, launchChromium, NO_CHROMIUM } from '#test/support/chromium';
import { deadLetteredAccount, givenUpAccount, OutageInvoker } from '#test/support/dead-letters';
import { api, startTestRuntime } from '../harness';
import { startReceiver } from '../webhooks/receiver';

/**
 * The sandbox console (GET /console) in a real headless Chromium, against the whole local
 * runtime and a webhook receiver on loopback: what a partner sees and does, step by step.
 * The steps share one page and run in order. Skipped, saying what to install, where no
 * Chromium exists.
 */
const executablePath = chromiumPath();
if (!executablePath) console.warn(NO_CHROMIUM);

// CI installs Chromium (.ci/run): there a missing browser is a broken run, not a skip.
it.runIf(!executablePath && process.env.CI === 'true')('has a Chromium to drive in CI', () => {
  expect.fail(NO_CHROMIUM);
});

const TENANT = 'acme-console';
/** The receiver answers 204, so a 204 on the page can only be the receiver's answer. */
const RECEIVER_STATUS = 204;

describe.skipIf(!executablePath)('sandbox console in headless Chromium', () => {
  let runtime: LocalRuntime;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  let partner: ReturnType<typeof api>;
  /** Takes a worker down to make a dead letter. */
  const invoker = new OutageInvoker();
  /** Console errors (CSP violations among them) and uncaught exceptions of the page. */
  const problems: string[] = [];
  /** Problems a step provokes on purpose; each must occur (it proves the listener works), then is set aside. */
  const expectProblem = async (pattern: RegExp) => {
    await vi.waitFor(() => expect(problems.some((problem) => pattern.test(problem))).toBe(true));
    problems.splice(
      problems.findIndex((problem) => pattern.test(problem)),
      1,
    );
  };

  beforeAll(async () => {
    // The page polls the API every 2 s: keep the handlers' warnings and errors, not a line per request.
    setLogSink((line) => {
      if (!/^\{"level":"(DEBUG|INFO)"/.test(line)) console.log(line);
    });
    receiver = await startReceiver(() => RECEIVER_STATUS);
    runtime = await startTestRuntime({ invoker });
    partner = api(runtime, await runtime.mintToken(TENANT));
    browser = await launchChromium(executablePath as string);
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.stop();
    await receiver?.close();
    setLogSink(undefined);
  });

  /** The element's text, polled until the assertion holds (playwright-core has no `expect`). */
  const text = (locator: Locator) =>
    expect.poll(async () => (await locator.allInnerTexts()).join('\n'), { timeout: 10_000 });
  const hooksUrl = () => receiver.url('/console-hooks');
  let eventId = '';

  it('opens on the tenant in the box (dev, the tenant npm start prints a token for): a token taken and its records shown, no click', async () => {
    const dev = api(runtime, await runtime.mintToken('dev'));
    const created = await dev.post('/verify/accounts', {
      account_number: '5544332211',
      routing_number: '021000021',
      account_holder_name: 'Grace Hopper',
    });
    expect(created.status).toBe(200);

    await page.goto(`${runtime.url}/console`);
    await text(page.locator('#session')).toContain('Tenant dev: token valid until');
    await text(page.locator(`#accounts tr[data-id="${created.body.account.id}"]`)).toContain('Grace Hopper');
  });

  it('gets a token for the tenant typed in from POST /oauth2/token, and shows an account created through the API', async () => {
    await page.goto(`${runtime.url}/console`);
    await page.getByLabel('Tenant').fill(TENANT);
    await page.getByRole('button', { name: 'Get token' }).click();
    await text(page.locator('#session')).toContain(`Tenant ${TENANT}: token valid until`);

    const created = await partner.post('/verify/accounts', {
      account_number: '9876543210',
      routing_number: '021000021',
      account_holder_name: 'Ada Lovelace',
    });
    expect(created.status).toBe(200);
    const row = page.locator(`#accounts tr[data-id="${created.body.account.id}"]`);
    await text(row).toContain('Ada Lovelace');
    await text(row.locator('.badge').first()).toBe('valid');
  });

  it('adds a webhook configuration for every event kind and creates the signing secret', async () => {
    await page.getByLabel('Webhook URL').fill(hooksUrl());
    await page.getByRole('button', { name: 'Add configuration' }).click();

    await text(page.locator('#configuration-output')).toMatch(/^200: configuration [0-9a-f-]{36} added$/);
    await text(page.locator('#configurations tbody')).toContain(hooksUrl());
    const stored = await partner.get('/webhooks/configurations');
    expect(stored.body.webhook_configurations).toEqual([
      expect.objectContaining({ url: hooksUrl(), event_types: ['subscribe_all'], enabled: true }),
    ]);

    await page.getByRole('button', { name: 'Create or rotate secret' }).click();
    await text(page.locator('#secret-output')).toMatch(/^200: new secret whsec_/);
  });

  it('sends a test webhook: the receiver gets it, and the page shows its delivery attempt with the receiver’s status code', async () => {
    await page.locator('#test-webhook').getByLabel('Event kind').selectOption('person_closed');
    await page.getByRole('button', { name: 'Send test webhook' }).click();
    await text(page.locator('#test-webhook-output')).toMatch(/^201: test event stored/);

    const delivery = await vi.waitFor(
      () => {
        const found = receiver.at('/console-hooks').find((r) => JSON.parse(r.body).event_type === 'person_closed');
        if (!found) throw new Error('the receiver has not got the test event yet');
        return found;
      },
      { timeout: 10_000 },
    );
    eventId = String(delivery.headers['webhook-id']);

    const attempts = page.locator(`[data-event-id="${eventId}"] .attempts tbody tr`);
    await text(attempts).toContain(hooksUrl());
    await text(attempts.locator('td.status')).toBe(String(RECEIVER_STATUS));
  });

  it('redelivers the event from the page: the receiver gets it again and a second attempt shows', async () => {
    await page.locator(`[data-event-id="${eventId}"]`).getByRole('button', { name: 'Redeliver' }).click();
    await text(page.locator('#redeliver-output')).toBe(`202: event ${eventId} goes out again`);

    const attempts = page.locator(`[data-event-id="${eventId}"] .attempts td.status`);
    await text(attempts).toBe(`${RECEIVER_STATUS}\n${RECEIVER_STATUS}`);
    expect(receiver.at('/console-hooks').filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(2);
  });

  it('restricts a verified person created from the page once a sanctions entry for the name is added from the page', async () => {
    await page.getByText('Create a person').click();
    const form = page.locator('#create-person');
    await form.getByLabel('First name').fill('Vera');
    await form.getByLabel('Last name').fill('Consolata');
    await form.getByRole('button', { name: 'Create person' }).click();
    await text(page.locator('#create-person-output')).toMatch(/^200: person [0-9a-f-]{36} created$/);
    const personId = (await page.locator('#create-person-output').innerText()).split(' ')[2];
    const status = page.locator(`#persons tr[data-id="${personId}"] .badge`);
    await text(status).toBe('verified');

    const sanctions = page.locator('#add-sanctions-entry');
    await sanctions.getByLabel('Name', { exact: true }).fill('CONSOLATA, Vera');
    await sanctions.getByRole('button', { name: 'Add sanctions entry' }).click();

    await text(page.locator('#sanctions-output')).toBe('201: entry added; 1 person(s) restricted by it');
    await text(status).toBe('restricted');
    expect((await partner.get(`/persons/${personId}`)).body.person.status).toBe('restricted');
  });

  it('shows a rejected person’s screening hit as an operator, and clears it as a false positive: the person is verified', async () => {
    const form = page.locator('#create-person');
    await form.getByLabel('First name').fill('Sandy');
    await form.getByLabel('Last name').fill('Sanctioned');
    await form.getByRole('button', { name: 'Create person' }).click();
    await text(page.locator('#create-person-output')).toMatch(/^200: person [0-9a-f-]{36} created$/);
    const personId = (await page.locator('#create-person-output').innerText()).split(' ')[2];
    const row = page.locator(`#persons tr[data-id="${personId}"]`);
    await text(row.locator('.badge')).toBe('rejected');

    await row.getByRole('button', { name: 'Hits' }).click();
    const hit = page.locator('#hits tbody tr');
    await text(page.locator('#hits-output')).toBe(`1 hit(s) of person ${personId}`);
    await text(hit.locator('.badge')).toBe('open');
    expect(await hit.innerText()).toContain('SANCTIONED, Sandy');

    await hit.getByRole('button', { name: 'Clear (false positive)' }).click();
    await text(page.locator('#hits-output')).toBe('200: hit cleared');
    await text(hit.locator('.badge')).toBe('cleared');
    expect(await hit.innerText()).toContain('console-operator');
    await text(row.locator('.badge')).toBe('verified');
    expect((await partner.get(`/persons/${personId}`)).body.person.status).toBe('verified');
  });

  it('redrives a dead-lettered verification from the Dead letters view: it goes back as a new message and the account settles', async () => {
    const id = await deadLetteredAccount(runtime, invoker, partner);
    const row = page.locator('#dead-letter-queues tr[data-queue="verification"]');
    await text(row.locator('td.count')).toBe('1');
    invoker.down.clear();

    await row.getByRole('button', { name: 'Redrive' }).click();

    await text(page.locator('#redrive-output')).toBe(
      '200: 1 message(s) of verification moved back to their queue, each as a new message',
    );
    await text(row.locator('td.count')).toBe('0');
    await text(page.locator(`#accounts tr[data-id="${id}"] .badge`).first()).toBe('valid');
  });

  it('replays a stream batch the router gave up on from the Dead letters view: the account settles and the batch leaves the list', async () => {
    const { id, failure } = await givenUpAccount(runtime, invoker, partner);
    const { startSequenceNumber, batchSize } = failure.batchInfo;
    const row = page.locator(`#stream-failures tr[data-start-sequence-number="${startSequenceNumber}"]`);
    await text(row.locator('td').first()).toBe('StreamRouter');
    invoker.down.clear();

    await row.getByRole('button', { name: 'Replay' }).click();

    await text(page.locator('#replay-output')).toBe(
      `200: replayed ${batchSize} record(s) to StreamRouter, which processed them`,
    );
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    await text(page.locator(`#accounts tr[data-id="${id}"] .badge`).first()).toBe('valid');
  });

  it('shows an API error with its error_code and message: a plain-http webhook URL outside loopback is 400 invalid_url', async () => {
    await page.getByLabel('Webhook URL').fill('http://192.168.1.20:8080/hooks');
    await page.getByRole('button', { name: 'Add configuration' }).click();

    const output = page.locator('#configuration-output');
    await text(output).toMatch(/^400 invalid_url: \S/);
    expect(await output.getAttribute('class')).toBe('error');
    // Chromium logs every 4xx fetch as a console error; this one is the point of the step.
    await expectProblem(/status of 400/);
  });

  it('shows a partner’s free-form test data as text, never as markup', async () => {
    const payload = '<img src=x onerror="document.title=`pwned`">';
    expect(
      (await partner.post('/webhooks/invoke', { event_type: 'person_created', data: { id: payload } })).status,
    ).toBe(201);
    const events = await partner.get('/events?test=true&event_type=person_created');
    const event = events.body.events.find((e: any) => e.event_data.person.id === payload);

    const block = page.locator(`[data-event-id="${event.event_id}"]`);
    await text(block).toContain('<img src');
    expect(await block.locator('img').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
  });

  it('runs no script but its own: an inline script put into the page is refused by the Content-Security-Policy', async () => {
    // As an injected <img onerror> or <script> would: an inline script element in the page.
    await page.addScriptTag({ content: 'window.inlineScriptRan = true' }).catch(() => undefined);
    const ran = await page.evaluate('window.inlineScriptRan === true');

    expect(ran).toBe(false);
    await expectProblem(/Content Security Policy/);
  });

  it('reads the attempts of the events it listed with the token of the tenant it listed them for, when another tenant is taken meanwhile', async () => {
    // The next refresh's event list is held until another tenant's token is taken.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let listed = false;
    const list = /\/events\?size=10$/;
    await page.route(list, async (route) => {
      listed = true;
      await held;
      await route.continue();
    });
    await vi.waitFor(() => expect(listed).toBe(true), { timeout: 10_000 });
    await page.getByLabel('Tenant').fill('acme-console-other');
    await page.getByRole('button', { name: 'Get token' }).click();
    await text(page.locator('#session')).toContain('Tenant acme-console-other: token valid until');

    // The held list answers TENANT's events: their attempts are read as TENANT, never as the other tenant (404).
    const details = page.waitForResponse((response) => /\/events\/[^/?]+$/.test(response.url()));
    release();
    expect((await details).status()).toBe(200);
    await page.unroute(list);
    expect(problems.filter((problem) => /status of 404/.test(problem))).toEqual([]);

    await page.getByLabel('Tenant').fill(TENANT);
    await page.getByRole('button', { name: 'Get token' }).click();
    await text(page.locator('#session')).toContain(`Tenant ${TENANT}: token valid until`);
  });

  it('had no console error, CSP violation or uncaught exception in any step but those provoked on purpose', () => {
    expect(problems).toEqual([]);
  });
});
