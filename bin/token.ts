import { commandLine, usageError } from '#lib/command-line';
import { DEFAULT_TOKEN_TTL_SECONDS, LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import { LOCAL_OPERATORS } from '#lib/local/operators';
import { stateDir } from '#lib/local/state-dir';
import { isOperatorScope, OPERATOR_SCOPES, SCOPES, SERVICE_SCOPES } from '#shared/scopes';

// `npm run --silent token [-- --tenant <name>] [--scope "a b"] [--ttl seconds]`
// Prints only the JWT, so `TOKEN=$(npm run --silent token)` works. The tenant is `dev`
// unless given, the tenant `npm start` prints a token for. Every partner scope unless
// `--scope` says otherwise; an operator's (`--scope review:screening`) only when named, and
// the review routes take it only from a local operator (`--tenant ops`, lib/local/operators.ts).
// It signs with the key the running server trusts (in DATA_DIR, or .local/).

const USAGE = `usage: npm run --silent token [-- --tenant <name>] [--scope "<space separated scopes>"] [--ttl <seconds>]
scopes (every one by default): ${SCOPES.join(' ')}
operator scopes (only when asked for, e.g. --tenant ops --scope ${OPERATOR_SCOPES[0]}; the review routes refuse any client but the local operators ${LOCAL_OPERATORS.join(', ')}): ${OPERATOR_SCOPES.join(' ')}`;

const fail = (sentence: string): never => usageError(USAGE, sentence);

const values = commandLine(USAGE, {
  tenant: { type: 'string', default: 'dev' },
  scope: { type: 'string' },
  ttl: { type: 'string' },
});
if (!values.tenant?.trim()) fail('--tenant must name a tenant');

const ttlSeconds = values.ttl === undefined ? DEFAULT_TOKEN_TTL_SECONDS : Number(values.ttl);
if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) fail('--ttl must be a positive whole number of seconds');

const scopes = values.scope === undefined ? [...SCOPES] : values.scope.split(/\s+/).filter(Boolean);
const unknown = scopes.filter((scope) => !(SERVICE_SCOPES as readonly string[]).includes(scope));
// Still minted: a token with a scope no route asks for is how a 403 is tried out.
if (unknown.length > 0) console.error(`warning: not scopes of this service: ${unknown.join(' ')}`);
const tenant = values.tenant.trim();
if (scopes.some(isOperatorScope) && !(LOCAL_OPERATORS as readonly string[]).includes(tenant)) {
  console.error(
    `warning: "${tenant}" is not a local operator (${LOCAL_OPERATORS.join(', ')}): the review routes answer its token 403 not_an_operator`,
  );
}

const issuer = await LocalIssuer.persisted(stateDir(process.env.DATA_DIR || undefined));
console.log(await issuer.mint({ tenant, scopes, ttlSeconds }));
