/**
 * The page's one way to build DOM. API data only ever becomes text nodes and attribute
 * values, never markup: a test event's `<img src=x onerror=…>` shows as those characters.
 */

/** @typedef {Node | string | number | false | null | undefined} Child */

/**
 * `h('td', { class: 'ok' }, 'text', otherNode)`. Props are attributes (`true` for a bare
 * one; `false` and `undefined` leave it out), `data` sets `data-*`, `on<event>` a listener.
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name === 'data') Object.assign(element.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function')
      element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...nodes(children));
  return element;
}

/**
 * @param {(Child | Child[])[]} children
 * @returns {(Node | string)[]}
 */
const nodes = (children) =>
  children
    .flat()
    .flatMap((child) =>
      child === undefined || child === null || child === false
        ? []
        : [typeof child === 'number' ? String(child) : child],
    );

/**
 * A timestamp as its local time of day, the full value on hover.
 * @param {string | undefined} iso
 */
export const time = (iso) =>
  iso === undefined ? '' : h('time', { datetime: iso, title: iso }, new Date(iso).toLocaleTimeString());

/**
 * An id short enough for a table, whole on hover and when copied.
 * @param {string} id
 */
export const shortId = (id) => h('code', { title: id }, `${id.slice(0, 8)}…`);

/**
 * A status as a coloured word: its class is the value (`valid`, `restricted`, …).
 * @param {string | undefined} value
 */
export const badge = (value) => (value === undefined ? '' : h('span', { class: `badge ${value}` }, value));

/**
 * Puts the result of an action in its `<output>`: green when it worked, red with the
 * error otherwise.
 * @param {string} id
 * @param {boolean} ok
 * @param {...(Child | Child[])} content
 */
export function report(id, ok, ...content) {
  const output = /** @type {HTMLOutputElement} */ (document.getElementById(id));
  output.className = ok ? 'ok' : 'error';
  output.replaceChildren(...nodes(content));
}
