import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import type { JWKPublicKey } from 'plaid';
import { IdentityNoticeRefused } from '../identity-vendor';

// Plaid's webhook signature (https://plaid.com/docs/api/webhooks/webhook-verification/): the
// `Plaid-Verification` header is a JWT signed ES256 by a key Plaid names by `kid` and serves
// from /webhook_verification_key/get; its `iat` is at most 5 minutes old, and its
// `request_body_sha256` is the body's SHA-256 (a content hash, not a secret's digest).

/** How old a notice may be: Plaid's own advice. */
export const NOTICE_TOLERANCE_SECONDS = 5 * 60;
/** Keys kept per container (Plaid rotates rarely); a forged `kid` never enters. */
const MAX_KEYS = 8;

type Key = Awaited<ReturnType<typeof importJWK>>;

export class PlaidWebhookVerifier {
  private readonly keys = new Map<string, Key>();

  constructor(
    /** Plaid's key of this id (undefined when Plaid knows none): /webhook_verification_key/get. */
    private readonly fetchKey: (kid: string) => Promise<JWKPublicKey | undefined>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Throws `IdentityNoticeRefused` unless Plaid signed this body within the tolerance. */
  async verify(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<void> {
    const token = headers['plaid-verification'];
    if (!token) throw new IdentityNoticeRefused('no Plaid-Verification header');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new IdentityNoticeRefused('the Plaid-Verification header is no JWT');
    }
    if (header.alg !== 'ES256' || typeof header.kid !== 'string') {
      throw new IdentityNoticeRefused('the JWT is not signed ES256 with a key id');
    }
    const key = await this.key(header.kid);
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, key, {
        algorithms: ['ES256'],
        maxTokenAge: NOTICE_TOLERANCE_SECONDS,
        currentDate: this.now(),
      }));
    } catch (error) {
      // jose's codes name the check that failed (signature, age), never a key.
      throw new IdentityNoticeRefused(`the JWT does not verify (${(error as { code?: string }).code ?? 'invalid'})`);
    }
    const actual = createHash('sha256').update(body, 'utf8').digest('hex');
    const claimed = typeof claims.request_body_sha256 === 'string' ? claims.request_body_sha256 : '';
    if (claimed.length !== actual.length || !timingSafeEqual(Buffer.from(claimed), Buffer.from(actual))) {
      throw new IdentityNoticeRefused('the body is not the one signed');
    }
  }

  private async key(kid: string): Promise<Key> {
    const kept = this.keys.get(kid);
    if (kept) return kept;
    const jwk = await this.fetchKey(kid);
    if (!jwk) throw new IdentityNoticeRefused('Plaid knows no key of this id');
    if (jwk.expired_at !== null && jwk.expired_at * 1000 <= this.now().getTime()) {
      throw new IdentityNoticeRefused('the key has expired');
    }
    const { alg, crv, kty, x, y } = jwk;
    const key = await importJWK({ alg, crv, kty, x, y } as JWK, 'ES256');
    if (this.keys.size >= MAX_KEYS) this.keys.clear();
    this.keys.set(kid, key);
    return key;
  }
}
