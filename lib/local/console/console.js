import { call, callAsOperator, currentSession, describeFailure, getToken } from './api.js';
import { showDeadLetters } from './dead-letters.js';
import { h, report } from './dom.js';
import { accountRows, configurationRows, eventBlocks, hitRows, personRows } from './views.js';

/**
 * The sandbox console (docs/console.md): a partner's view of its tenant through the public
 * API only, refreshed every REFRESH_MS so a delivery that just happened shows without a
 * reload, and buttons for the sandbox actions. Every answer of an action is shown as the
 * API gave it.
 */
const REFRESH_MS = 2_000;
/**
 * The attempts of an event are read on every refresh while it may still change: for this
 * long after it was created or redelivered, and while a retry is due. Reading all of them
 * every time would cost a request per event per refresh (and a line each in the terminal).
 */
const WATCH_MS = 120_000;
/** Every this many refreshes (30 s) all events' attempts are read again, so a redelivery made elsewhere shows. */
const FULL_REFRESH_EVERY = 15;

/** The last answer shown per section: unchanged data is not rebuilt, so a button under the pointer stays put. */
const shown = new Map();
/** @type {Map<string, { event: any, watchUntil: number }>} event id → `GET /events/{id}` answer */
const known = new Map();
let timer = 0;
let running = false;
/** @type {boolean | undefined} a refresh asked for while one ran (true: a full one) */
let queued;
let ticks = 0;

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const workspace = /** @type {HTMLFieldSetElement} */ (byId('workspace'));
const refreshButton = /** @type {HTMLButtonElement} */ (byId('refresh'));
const autoRefresh = /** @type {HTMLInputElement} */ (byId('auto-refresh'));

/**
 * One API call behind a button: its answer goes to the `<output>` `outputId`; a success
 * refreshes the data at once.
 * @param {string} outputId
 * @param {Promise<import('./api.js').Answer>} request
 * @param {(answer: import('./api.js').Answer) => import('./dom.js').Child | import('./dom.js').Child[]} success
 */
async function act(outputId, request, success) {
  report(outputId, true, '…');
  const answer = await request;
  if (answer.ok) {
    report(outputId, true, success(answer));
    void refresh();
  } else {
    report(outputId, false, describeFailure(answer));
  }
  return answer;
}

/**
 * @param {string} id
 * @param {(data: FormData, form: HTMLFormElement) => Promise<unknown>} action
 */
function onSubmit(id, action) {
  const form = /** @type {HTMLFormElement} */ (byId(id));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector('button:not([type=button])'));
    button.disabled = true;
    try {
      await action(new FormData(form), form);
    } finally {
      button.disabled = false;
    }
  });
}

/** @param {number} count */
const digits = (count) => Array.from({ length: count }, () => Math.floor(Math.random() * 10)).join('');

// ---- token --------------------------------------------------------------------------

const connectForm = /** @type {HTMLFormElement} */ (byId('connect'));

onSubmit('connect', async (data) => {
  const tenant = String(data.get('tenant'));
  const answer = await getToken(tenant);
  const session = currentSession();
  workspace.disabled = !session;
  shown.clear();
  known.clear();
  for (const id of ['configurations', 'events', 'accounts', 'persons', 'hits']) container(id).replaceChildren();
  if (!session) return report('session', false, describeFailure(answer));
  report(
    'session',
    true,
    'Tenant ',
    h('strong', {}, tenant),
    `: token valid until ${session.expiresAt.toLocaleString()}`,
  );
  await refresh(true);
});

// ---- refresh ------------------------------------------------------------------------

/** @param {boolean} [full] read every event's attempts */
async function refresh(full = false) {
  if (running) {
    queued = queued || full;
    return;
  }
  running = true;
  window.clearTimeout(timer);
  try {
    // The runtime's dead letters are no tenant's: shown before a token is taken too.
    await Promise.all([showDeadLetters(), refreshTenant(full)]);
    byId('refreshed').textContent = `updated ${new Date().toLocaleTimeString()}`;
  } finally {
    running = false;
    if (queued !== undefined) {
      const fullAgain = queued;
      queued = undefined;
      void refresh(fullAgain);
    } else if (autoRefresh.checked && !document.hidden) {
      timer = window.setTimeout(refresh, REFRESH_MS);
    }
  }
}

/** @param {boolean} full read every event's attempts */
async function refreshTenant(full) {
  const session = currentSession();
  if (!session) return;
  const everything = full || ticks++ % FULL_REFRESH_EVERY === 0;
  // Every read of this refresh as the session's tenant, whatever tenant is taken meanwhile.
  const { token } = session;
  const [configurations, events, accounts, persons] = await Promise.all([
    call('GET', '/webhooks/configurations', undefined, token),
    latestEvents(token).then((answer) => withAttempts(answer, everything, token)),
    call('GET', '/verify/accounts?size=20', undefined, token),
    call('GET', '/persons?size=20', undefined, token),
  ]);
  // Another tenant's token was taken meanwhile: these answers are not this tenant's.
  if (currentSession() !== session) return;
  show(
    'configurations',
    configurations,
    (body) => configurationRows(body.webhook_configurations, remove),
    'None yet: add one below.',
  );
  show('events', events, (body) => eventBlocks(body.events, redeliver), 'No events yet: send a test webhook.');
  show(
    'accounts',
    accounts,
    (body) => accountRows(body.accounts),
    'None yet: create one below, or POST /verify/accounts.',
  );
  show(
    'persons',
    persons,
    (body) => personRows(body.persons, showHits),
    'None yet: create one below, or POST /persons.',
  );
  if ([configurations, events, accounts, persons].some((answer) => answer.status === 401)) {
    autoRefresh.checked = false;
    report('session', false, '401: the token expired or is not accepted any more: get a new one.');
  }
}

/** @param {string} section */
const container = (section) =>
  /** @type {HTMLElement} */ (document.querySelector(section === 'events' ? '#events' : `#${section} tbody`));

/**
 * @param {string} section
 * @param {import('./api.js').Answer} answer
 * @param {(body: any) => HTMLElement[]} render
 * @param {string} empty
 */
function show(section, answer, render, empty) {
  const text = JSON.stringify(answer);
  if (shown.get(section) === text) return;
  shown.set(section, text);
  if (!answer.ok) return report(`${section}-status`, false, describeFailure(answer));
  report(`${section}-status`, true);
  const items = render(answer.body);
  const none =
    section === 'events'
      ? h('p', { class: 'muted' }, empty)
      : h('tr', {}, h('td', { colspan: 99, class: 'muted' }, empty));
  container(section).replaceChildren(...(items.length > 0 ? items : [none]));
}

/**
 * The newest 10 events, test events (`POST /webhooks/invoke`, which the log lists only when
 * asked) among them: one page of each list, merged newest first.
 * @param {string} token the tenant's the refresh is for
 * @returns {Promise<import('./api.js').Answer>}
 */
async function latestEvents(token) {
  const answers = await Promise.all([
    call('GET', '/events?size=10', undefined, token),
    call('GET', '/events?test=true&size=10', undefined, token),
  ]);
  const refused = answers.find((answer) => !answer.ok);
  if (refused) return refused;
  const key = (/** @type {any} */ event) => `${event.created_at}#${event.event_id}`;
  const events = answers
    .flatMap((answer) => answer.body.events)
    .sort((a, b) => (key(a) < key(b) ? 1 : -1))
    .slice(0, 10);
  return { ...answers[0], body: { events } };
}

/**
 * `GET /events` with each event's attempts (`GET /events/{id}`), read again only while they
 * may change; with the token the list was read with, so a tenant taken meanwhile never reads
 * another tenant's event (a 404).
 * @param {import('./api.js').Answer} answer
 * @param {boolean} everything
 * @param {string} token
 * @returns {Promise<import('./api.js').Answer>}
 */
async function withAttempts(answer, everything, token) {
  if (!answer.ok) return answer;
  const events = await Promise.all(
    answer.body.events.map(async (/** @type {any} */ envelope) => {
      const seen = known.get(envelope.event_id);
      if (seen && !everything && !changing(seen)) return seen.event;
      const detail = await call('GET', `/events/${envelope.event_id}`, undefined, token);
      if (!detail.ok) return seen?.event ?? envelope;
      const watchUntil = Math.max(seen?.watchUntil ?? 0, Date.parse(envelope.created_at) + WATCH_MS);
      known.set(envelope.event_id, { event: detail.body.event, watchUntil });
      return detail.body.event;
    }),
  );
  return { ...answer, body: { events } };
}

/** @param {{ event: any, watchUntil: number }} seen */
function changing({ event, watchUntil }) {
  if (Date.now() < watchUntil) return true;
  // Each configuration's latest attempt: a failed one that is not final has a retry coming.
  const latest = new Map((event.attempts ?? []).map((/** @type {any} */ attempt) => [attempt.url, attempt]));
  return [...latest.values()].some(
    (attempt) => !(attempt.status_code >= 200 && attempt.status_code < 300) && !attempt.final,
  );
}

refreshButton.addEventListener('click', () => refresh(true));
void refresh();
// The page opens on the tenant in the box (`dev`, the one `npm start` prints a token for), as
// if Get token were pressed: a submit, so the button is disabled until that token is in and
// a tenant typed meanwhile cannot be overtaken by it. The button stays, for another tenant.
connectForm.requestSubmit();
autoRefresh.addEventListener('change', () => (autoRefresh.checked ? refresh() : window.clearTimeout(timer)));
document.addEventListener('visibilitychange', () => !document.hidden && autoRefresh.checked && refresh());

// ---- webhooks -----------------------------------------------------------------------

onSubmit('add-configuration', (data) =>
  act(
    'configuration-output',
    call('POST', '/webhooks/configurations', {
      url: data.get('url'),
      event_types: data.getAll('event_types'),
      enabled: true,
    }),
    (answer) => `${answer.status}: configuration ${answer.body.webhook_configuration.id} added`,
  ),
);

/** @param {string} id */
const remove = (id) =>
  act(
    'configuration-output',
    call('DELETE', `/webhooks/configurations/${id}`),
    (answer) => `${answer.status}: configuration ${id} deleted`,
  );

byId('show-secret').addEventListener('click', () =>
  act('secret-output', call('GET', '/webhooks/secret'), (answer) => h('code', {}, answer.body.webhook_secret.secret)),
);
byId('create-secret').addEventListener('click', () =>
  act('secret-output', call('POST', '/webhooks/secret'), (answer) => [
    `${answer.status}: new secret `,
    h('code', {}, answer.body.webhook_secret.secret),
  ]),
);

onSubmit('test-webhook', (data) =>
  act(
    'test-webhook-output',
    call('POST', '/webhooks/invoke', { event_type: data.get('event_type') }),
    (answer) =>
      `${answer.status}: test event stored; it goes to every configuration subscribed to its kind (see Events)`,
  ),
);

/** @param {string} id */
function redeliver(id) {
  const seen = known.get(id);
  if (seen) seen.watchUntil = Date.now() + WATCH_MS;
  return act(
    'redeliver-output',
    call('POST', `/events/${id}/redeliver`),
    (answer) => `${answer.status}: event ${id} goes out again`,
  );
}

// ---- sandbox records ----------------------------------------------------------------

const accountForm = /** @type {HTMLFormElement} */ (byId('create-account'));
const accountNumber = /** @type {HTMLInputElement} */ (accountForm.elements.namedItem('account_number'));
// A fresh number each time (its last four digits kept: they choose the outcome), as one bank
// account may be verified at most 5 times a day.
const renewAccountNumber = () => {
  accountNumber.value = `${digits(6)}${accountNumber.value.slice(-4)}`;
};
renewAccountNumber();

onSubmit('create-account', async (data) => {
  const answer = await act(
    'create-account-output',
    call('POST', '/verify/accounts', Object.fromEntries(data)),
    (answer) => `${answer.status}: account ${answer.body.account.id} created; it settles within a second`,
  );
  if (answer.ok) renewAccountNumber();
});

const personForm = /** @type {HTMLFormElement} */ (byId('create-person'));
const reference = /** @type {HTMLInputElement} */ (personForm.elements.namedItem('customer_reference_id'));
const renewReference = () => {
  reference.value = `console-${digits(8)}`;
};
renewReference();

onSubmit('create-person', async (data) => {
  const { date_of_birth, social_security_number, address1, city, state, zip5, ...names } = Object.fromEntries(data);
  const person = {
    ...names,
    ...(date_of_birth && { date_of_birth }),
    ...(social_security_number && { social_security_number }),
    ...(address1 && { addresses: [{ type: 'home', address1, city, state, country: 'US', zip5 }] }),
  };
  const answer = await act(
    'create-person-output',
    call('POST', '/persons', person),
    (answer) => `${answer.status}: person ${answer.body.person.id} created`,
  );
  if (answer.ok) renewReference();
});

onSubmit('add-sanctions-entry', (data) => {
  const { name, date_of_birth } = Object.fromEntries(data);
  return act(
    'sanctions-output',
    call('POST', '/local/sanctions/entries', { name, ...(date_of_birth && { date_of_birth }) }),
    (answer) => `${answer.status}: entry added; ${answer.body.restricted} person(s) restricted by it`,
  );
});

// ---- screening hits (an operator's view) -----------------------------------------------

/** @type {string | undefined} the person whose hits are shown */
let hitsOf;

/** @param {string} personId */
async function showHits(personId) {
  const session = currentSession();
  if (!session) return;
  hitsOf = personId;
  const query = new URLSearchParams({ tenant: session.tenant, person_id: personId });
  const answer = await callAsOperator('GET', `/screening/hits?${query}`);
  if (!answer.ok) return report('hits-output', false, describeFailure(answer));
  const hits = answer.body.screening_hits;
  report('hits-output', true, `${hits.length} hit(s) of person ${personId}`);
  container('hits').replaceChildren(...hitRows(hits, decide));
}

/**
 * @param {string} id
 * @param {'false_positive' | 'confirmed'} decision
 */
async function decide(id, decision) {
  const answer = await act(
    'hits-output',
    callAsOperator('POST', `/screening/hits/${id}/decision`, { decision }),
    (answer) => `${answer.status}: hit ${answer.body.screening_hit.status}`,
  );
  if (answer.ok && hitsOf) await showHits(hitsOf);
  if (answer.ok) report('hits-output', true, `${answer.status}: hit ${answer.body.screening_hit.status}`);
}
