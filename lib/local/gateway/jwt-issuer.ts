import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import { SCOPES } from '#shared/scopes';
import { readOrCreateFile } from '../state-dir';

// The local stand-in for the Cognito user pool. Its tokens look like Cognito
// client-credentials access tokens (`sub` = `client_id` = tenant, space-separated
// `scope`, `token_use: access`) plus an `aud`, because locally anyone may mint a token for
// any tenant name, so the authorizer cannot list client ids as its audience the way the
// AWS one does.

export const LOCAL_ISSUER = 'https://local-issuer.verify-service.invalid';
export const LOCAL_AUDIENCE = 'verify-service-local';
/** Cognito's default access-token lifetime is 1 h; locally a working day is friendlier. */
export const DEFAULT_TOKEN_TTL_SECONDS = 12 * 60 * 60;
/** HTTP API JWT authorizers only accept RSA signatures, so ES256 would pass here and fail in AWS. */
export const SIGNING_ALGORITHM = 'RS256';

const KEY_FILE = 'jwt-signing-key.json';

export interface MintOptions {
  readonly tenant: string;
  /** Default: every scope of the contract. */
  readonly scopes?: readonly string[];
  readonly ttlSeconds?: number;
  /** Epoch seconds; default now. Tests move it to mint expired tokens. */
  readonly issuedAt?: number;
  /** Claims to add or replace (`undefined` removes one), e.g. a wrong `iss` in a test. */
  readonly overrides?: JWTPayload;
}

export class LocalIssuer {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicJwk: JWK,
  ) {}

  /** A throw-away key pair: tokens die with the process (tests). */
  static async generate(): Promise<LocalIssuer> {
    return LocalIssuer.fromPrivateJwk(await newPrivateJwk());
  }

  /** The key pair kept in `dir`, created on first use, shared by the server and `npm run token`. */
  static async persisted(dir: string): Promise<LocalIssuer> {
    const text = await readOrCreateFile(
      join(dir, KEY_FILE),
      async () => `${JSON.stringify(await newPrivateJwk(), null, 2)}\n`,
    );
    return LocalIssuer.fromPrivateJwk(JSON.parse(text) as JWK);
  }

  private static async fromPrivateJwk(jwk: JWK): Promise<LocalIssuer> {
    const privateKey = (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey;
    const { kty, n, e, kid, alg } = jwk;
    return new LocalIssuer(privateKey, { kty, n, e, kid, alg, use: 'sig' });
  }

  /** What the issuer would publish at its `jwks_uri`. */
  get jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async mint(options: MintOptions): Promise<string> {
    const issuedAt = options.issuedAt ?? Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      iss: LOCAL_ISSUER,
      aud: LOCAL_AUDIENCE,
      sub: options.tenant,
      client_id: options.tenant,
      token_use: 'access',
      scope: (options.scopes ?? SCOPES).join(' '),
      iat: issuedAt,
      exp: issuedAt + (options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS),
      jti: randomUUID(),
      ...options.overrides,
    };
    for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: this.publicJwk.kid, typ: 'JWT' })
      .sign(this.privateKey);
  }
}

async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg: SIGNING_ALGORITHM, kid: await calculateJwkThumbprint(jwk) };
}
