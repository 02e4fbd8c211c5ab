import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { IdentityVerificationStatusUpdatedWebhook, JWKPublicKey } from 'plaid';

// Plaid's webhooks as the adapter checks them (https://plaid.com/docs/api/webhooks/webhook-verification/):
// a `Plaid-Verification` JWT signed ES256 with a key served by /webhook_verification_key/get,
// its `iat` the sending time, its `request_body_sha256` the body's SHA-256.

export interface WebhookSigner {
  readonly kid: string;
  /** The public key as /webhook_verification_key/get answers it. */
  readonly jwk: JWKPublicKey;
  sign(body: string, at: Date): Promise<string>;
}

/** A fresh signing key (the fake's, or another one a test signs a forgery with). */
export async function webhookSigner(now: () => Date): Promise<WebhookSigner> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const kid = randomUUID();
  const { crv, kty, x, y } = await exportJWK(publicKey);
  const jwk = {
    alg: 'ES256',
    crv,
    kid,
    kty,
    use: 'sig',
    x,
    y,
    created_at: Math.floor(now().getTime() / 1000),
    expired_at: null,
  };
  return {
    kid,
    jwk: jwk as JWKPublicKey,
    sign: (body, at) =>
      new SignJWT({ request_body_sha256: createHash('sha256').update(body, 'utf8').digest('hex') })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuedAt(Math.floor(at.getTime() / 1000))
        .sign(privateKey),
  };
}

/** Identity Verification's STATUS_UPDATED about an IDV, signed at `at`. */
export async function statusUpdated(
  signer: WebhookSigner,
  idvId: string,
  at: Date,
): Promise<{ body: string; headers: Record<string, string> }> {
  const webhook: IdentityVerificationStatusUpdatedWebhook = {
    webhook_type: 'IDENTITY_VERIFICATION',
    webhook_code: 'STATUS_UPDATED',
    identity_verification_id: idvId,
    environment: 'sandbox' as IdentityVerificationStatusUpdatedWebhook['environment'],
  };
  const body = JSON.stringify(webhook);
  return { body, headers: { 'plaid-verification': await signer.sign(body, at), 'content-type': 'application/json' } };
}
