import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { vi } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * The sandbox console's scripts (lib/local/console/*.js) run in Node, without a browser:
 * just enough of a page for them (elements by id or selector, forms and their fields with
 * the values index.html gives them, listeners, FormData) and a fake of the API they call,
 * which records each request. Timers are not run: a test drives the page itself. What
 * needs a real browser (layout, CSP, the DOM's own rules) is the Chromium test's
 * (test/integration/console/console.test.ts).
 */
const CONSOLE_DIR = join(REPO_ROOT, 'lib/local/console');
const PAGE = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');

type Listener = (event: { type: string; preventDefault(): void }) => unknown;
type Child = FakeElement | string;

export class FakeElement {
  private readonly listeners = new Map<string, Listener[]>();
  private readonly fields = new Map<string, FakeElement>();
  private readonly selected = new Map<string, FakeElement>();
  readonly attributes = new Map<string, string>();
  readonly dataset: Record<string, string> = {};
  children: Child[] = [];
  className = '';
  textContent = '';
  disabled = false;
  checked = false;
  value = '';

  constructor(readonly tag: string) {}

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** Fires `type` and resolves once every listener's promise has. */
  async dispatch(type: string): Promise<void> {
    const event = { type, preventDefault: () => {} };
    await Promise.all((this.listeners.get(type) ?? []).map((listener) => listener(event)));
  }

  /** A form's submit, as a press of its submit button makes it (validation aside). */
  requestSubmit(): void {
    void this.dispatch('submit');
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  append(...nodes: Child[]): void {
    this.children.push(...nodes);
  }

  replaceChildren(...nodes: Child[]): void {
    this.children = nodes;
  }

  querySelector(selector: string): FakeElement {
    return remember(this.selected, selector, () => new FakeElement(selector));
  }

  /** A form's field by name, with the value index.html gives it. */
  field(name: string): FakeElement {
    return remember(this.fields, name, () => new FakeElement('input'));
  }

  get elements() {
    return { namedItem: (name: string) => this.field(name) };
  }

  fieldEntries(): [string, string][] {
    return [...this.fields].map(([name, field]) => [name, field.value]);
  }

  /** The text a reader sees: own text, then the children's. */
  text(): string {
    return this.textContent + this.children.map((child) => (typeof child === 'string' ? child : child.text())).join('');
  }
}

function remember<T>(map: Map<string, T>, key: string, make: () => T): T {
  const known = map.get(key);
  if (known) return known;
  const made = make();
  map.set(key, made);
  return made;
}

/** `new FormData(form)` over a fake form's fields. */
class FakeFormData {
  constructor(private readonly form: FakeElement) {}
  get(name: string): string {
    return this.form.field(name).value;
  }
  getAll(name: string): string[] {
    return [this.get(name)];
  }
  [Symbol.iterator]() {
    return this.form.fieldEntries()[Symbol.iterator]();
  }
}

/** One request the page sent. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
  readonly body?: string;
}

/** How the fake API answers a request; undefined: the default answer below. */
export type Answer = (request: SentRequest) => { status: number; body: unknown } | undefined;

/** Empty lists for every section, a token named after its client id (`token-for-dev`). */
function defaultAnswer(request: SentRequest): { status: number; body: unknown } {
  if (request.path === '/oauth2/token') {
    const client = new URLSearchParams(request.body).get('client_id');
    return { status: 200, body: { access_token: `token-for-${client}`, expires_in: 43_200, token_type: 'Bearer' } };
  }
  const path = request.path.split('?')[0];
  const lists: Record<string, unknown> = {
    '/local/dead-letters': { deadLetterQueues: [], streamFailures: [], streamFailureAdvice: '' },
    '/webhooks/configurations': { webhook_configurations: [] },
    '/events': { events: [] },
    '/verify/accounts': { accounts: [] },
    '/persons': { persons: [] },
  };
  return path && path in lists ? { status: 200, body: lists[path] } : { status: 404, body: { message: 'Not Found' } };
}

export interface ConsolePage {
  /** Every request the page sent, in order. */
  readonly requests: SentRequest[];
  byId(id: string): FakeElement;
  /** Removes the stand-ins from the globals, once the page has sent nothing for a while (its work done). */
  close(): Promise<void>;
}

/** How long without a request in flight counts as the page being done. */
const QUIET_MS = 50;

/**
 * Puts the fake page and API in the globals and loads console.js, as the browser does when
 * the page opens (each call loads it afresh: its state is the module's).
 */
export async function openConsole(answer: Answer = () => undefined): Promise<ConsolePage> {
  const byIdMap = new Map<string, FakeElement>();
  const selected = new Map<string, FakeElement>();
  const byId = (id: string) => remember(byIdMap, id, () => elementOfPage(id));
  const requests: SentRequest[] = [];
  let inFlight = 0;
  let lastSettled = Date.now();

  vi.stubGlobal('document', {
    hidden: false,
    getElementById: byId,
    querySelector: (selector: string) => remember(selected, selector, () => new FakeElement(selector)),
    createElement: (tag: string) => new FakeElement(tag),
    addEventListener: () => {},
  });
  vi.stubGlobal('window', { setTimeout: () => 0, clearTimeout: () => {} });
  vi.stubGlobal('FormData', FakeFormData);
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const request: SentRequest = {
      method: init.method ?? 'GET',
      path,
      authorization: headers.authorization,
      body: init.body === undefined ? undefined : String(init.body),
    };
    requests.push(request);
    inFlight++;
    await Promise.resolve();
    const { status, body } = answer(request) ?? defaultAnswer(request);
    inFlight--;
    lastSettled = Date.now();
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });

  vi.resetModules();
  await import(join(CONSOLE_DIR, 'console.js'));
  const close = async () => {
    while (inFlight > 0 || Date.now() - lastSettled < QUIET_MS) await sleep(QUIET_MS / 2);
    vi.unstubAllGlobals();
  };
  return { requests, byId, close };
}

/**
 * An element of index.html by id, with its `disabled`, `checked` and `value` attributes, and
 * for a form, its fields' values.
 */
function elementOfPage(id: string): FakeElement {
  const tag = new RegExp(`<(\\w+)\\s[^>]*\\bid="${id}"[^>]*>`).exec(PAGE);
  if (!tag) throw new Error(`index.html has no element with id "${id}"`);
  const element = new FakeElement(tag[1] as string);
  const attributes = tag[0];
  element.disabled = /\sdisabled[\s>]/.test(attributes);
  element.checked = /\schecked[\s>]/.test(attributes);
  element.value = /\svalue="([^"]*)"/.exec(attributes)?.[1] ?? '';
  if (element.tag === 'form') {
    const form = PAGE.slice(tag.index, PAGE.indexOf('</form>', tag.index));
    for (const field of form.matchAll(/<(?:input|select)\s[^>]*\bname="([^"]+)"[^>]*>/g)) {
      element.field(field[1] as string).value = /\svalue="([^"]*)"/.exec(field[0])?.[1] ?? '';
    }
  }
  return element;
}
