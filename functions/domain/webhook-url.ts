import { type AddressClass, classifyAddress, parseIPv4 } from './address-class';

// Which webhook URLs the service will call (docs/api.md#webhook-configurations). A partner
// chooses the URL and the service calls it from inside AWS, so an unchecked URL would let a
// partner reach the metadata service, the Lambda runtime API or anything else private to the
// deployment (server-side request forgery). Checked when a configuration is saved and again
// before each delivery, because DNS answers change after the first check; each delivery
// then connects to the addresses its own check approved, never to a later DNS answer
// (functions/shared/webhook-transport), so a DNS server that answers the check with a
// public address and the connection with a private one (DNS rebinding) reaches nothing.

/**
 * The only port webhooks go to: https's own. A partner's receiver needs no other, and any
 * other would let a partner point the service at whatever else listens on a public host
 * (mail, SSH, admin consoles). Locally, a loopback receiver may use any port.
 */
export const WEBHOOK_PORT = 443;

export interface WebhookUrlOptions {
  /**
   * The local runtime: `http:` is allowed to a host that resolves only to loopback, and
   * loopback addresses are allowed beside public ones. Never set in AWS.
   */
  allowLoopbackHttp: boolean;
  /** Every address (A and AAAA) the host name resolves to. */
  resolve: (host: string) => Promise<string[]>;
}

/** A URL that passed the check, with the addresses checked: the sender connects to these, not to a second DNS answer. */
export interface VettedUrl {
  readonly url: URL;
  readonly addresses: readonly string[];
}

export type WebhookUrlCheck = ({ ok: true } & VettedUrl) | { ok: false; reason: string };

/** How a refused address is named in a reason. */
const DESCRIPTION: Record<AddressClass, string> = {
  public: 'a public',
  private: 'a private',
  loopback: 'a loopback',
  'link-local': 'a link-local',
  cgnat: 'a carrier-grade NAT',
  metadata: 'a cloud metadata',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

/**
 * Whether the service may call `url`. Reasons are short sentences for a 400 answer or an
 * attempt's record, and never repeat the URL: its path, query or user info may hold a secret.
 */
export async function checkWebhookUrl(url: string, options: WebhookUrlOptions): Promise<WebhookUrlCheck> {
  const parsed = parseUrl(url);
  if (parsed === undefined) return refuse('The URL is not a valid absolute URL.');
  // Credentials in a URL end up in logs and in the partner's dashboard; a secret belongs in the signature.
  if (parsed.username !== '' || parsed.password !== '')
    return refuse('The URL must not contain a user name or password.');
  const plainHttp = parsed.protocol === 'http:' && options.allowLoopbackHttp;
  if (parsed.protocol !== 'https:' && !plainHttp) return refuse('The URL must use https.');

  const addresses = await addressesOf(parsed.hostname, options.resolve);
  if (addresses === undefined) return refuse('The URL’s host name could not be resolved.');
  if (addresses.length === 0) return refuse('The URL’s host name resolves to no address.');

  const classes = addresses.map(classifyAddress);
  if (plainHttp && !classes.every((kind) => kind === 'loopback')) {
    return refuse('Plain http is allowed only to a loopback host; use https.');
  }
  const allowed: readonly AddressClass[] = options.allowLoopbackHttp ? ['public', 'loopback'] : ['public'];
  const refused = classes.find((kind) => !allowed.includes(kind));
  if (refused !== undefined) {
    const where = options.allowLoopbackHttp ? 'public or loopback addresses' : 'public addresses';
    return refuse(`The URL’s host points at ${DESCRIPTION[refused]} address; webhooks go only to ${where}.`);
  }
  const loopbackOnly = options.allowLoopbackHttp && classes.every((kind) => kind === 'loopback');
  if (!loopbackOnly && portOf(parsed) !== WEBHOOK_PORT) {
    const locally = options.allowLoopbackHttp ? '; locally, a loopback receiver may use any port' : '';
    return refuse(`The URL’s port must be ${WEBHOOK_PORT} (https’s own)${locally}.`);
  }
  return { ok: true, url: parsed, addresses };
}

/** The WHATWG parser leaves `port` empty when it is the scheme's default. */
const portOf = (url: URL): number => (url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** WHATWG parsing also normalises odd IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`) to dotted quads. */
function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** An IP literal is the address itself; a name is resolved. Undefined when resolution fails. */
async function addressesOf(hostname: string, resolve: WebhookUrlOptions['resolve']): Promise<string[] | undefined> {
  if (hostname.startsWith('[')) return [hostname.slice(1, -1)];
  if (parseIPv4(hostname) !== undefined) return [hostname];
  try {
    return await resolve(hostname);
  } catch {
    return undefined;
  }
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}
