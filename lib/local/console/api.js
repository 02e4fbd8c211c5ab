/**
 * The public API as a partner's code calls it, from the page's own origin: a token from the
 * token endpoint (kept in memory only, never in storage), then `Authorization: Bearer` and
 * `Service-Version` on every request. Nothing here knows the console is local, except that
 * the token endpoint accepts any tenant, and `callLocal`, which reaches `npm start`'s own
 * endpoints.
 */
export const SERVICE_VERSION = 'v2022-09-21';

/**
 * @typedef {{ ok: boolean, status: number, body: any }} Answer
 * @typedef {{ tenant: string, token: string, expiresAt: Date }} Session
 */

/** @type {Session | undefined} */
let session;

/** @returns {Session | undefined} */
export const currentSession = () => session;

/**
 * The OAuth 2.0 client-credentials grant, exactly as against Cognito's `/oauth2/token`
 * (locally the client id is the tenant and no secret is needed).
 * @param {string} tenant
 * @returns {Promise<Answer>}
 */
export async function getToken(tenant) {
  const answer = await send('/oauth2/token', {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: tenant }),
  });
  // A refused request forgets the previous tenant's token: the page never shows one tenant under another's name.
  session = answer.ok
    ? { tenant, token: answer.body.access_token, expiresAt: new Date(Date.now() + answer.body.expires_in * 1000) }
    : undefined;
  return answer;
}

/** The client id of the console's operator: an operator is no partner, so never the tenant's own token. */
export const OPERATOR_CLIENT = 'console-operator';

/** @type {string | undefined} the operator's token (`review:screening` only), kept in memory like the tenant's */
let operatorToken;

/**
 * As `call`, with an operator's token (`review:screening`, docs/api.md#hits-to-review),
 * asked from the token endpoint on first use; a refusal of it is answered as is.
 * @param {'GET' | 'POST'} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Answer>}
 */
export async function callAsOperator(method, path, body) {
  if (!operatorToken) {
    const answer = await send('/oauth2/token', {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: OPERATOR_CLIENT,
        scope: 'review:screening',
      }),
    });
    if (!answer.ok) return answer;
    operatorToken = answer.body.access_token;
  }
  return call(method, path, body, operatorToken);
}

/**
 * @param {'GET' | 'POST' | 'PUT' | 'DELETE'} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @param {string} [token] another token than the session's (the operator's)
 * @returns {Promise<Answer>}
 */
export function call(method, path, body, token = session?.token) {
  /** @type {Record<string, string>} */
  const headers = { 'service-version': SERVICE_VERSION };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/**
 * One of the runtime's local endpoints (`/local/dead-letters`, docs/local.md#dead-letters):
 * no token, as they serve no tenant; a body as JSON, typed so (the redrive refuses any
 * other type, which is what keeps other sites' pages from sending one).
 * @param {'GET' | 'POST'} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Answer>}
 */
export function callLocal(method, path, body) {
  if (body === undefined) return send(path, { method });
  return send(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/**
 * @param {string} path
 * @param {RequestInit} init
 * @returns {Promise<Answer>}
 */
async function send(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return {
      ok: false,
      status: 0,
      body: { message: 'the local runtime does not answer: is npm start still running?' },
    };
  }
  const text = await response.text();
  let body;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { ok: response.ok, status: response.status, body };
}

/**
 * One line for people: the contract's `error_code` and `message`, API Gateway's own
 * `{ message }` (401, 403, 404), or OAuth's `error` and `error_description`.
 * @param {Answer} answer
 * @returns {string}
 */
export function describeFailure(answer) {
  const body = answer.body ?? {};
  const code = body.error_code ?? body.error;
  const message = body.message ?? body.error_description;
  const parts = [answer.status === 0 ? 'no answer' : String(answer.status), code && `${code}:`, message];
  return parts.filter(Boolean).join(' ');
}
