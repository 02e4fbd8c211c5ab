import { httpHandler } from '#shared/http/handler';
import { emptyBody } from '#shared/input-schemas';
import { presentSecret, SECRET_HEADERS } from '../present';
import { rotateSigningSecret } from '../rotate-webhook-secret';

/** POST /webhooks/secret — a new signing secret; the previous one keeps signing for 24 h. */
export const handler = httpHandler({ body: emptyBody }, async ({ tenant }) => {
  const secret = await rotateSigningSecret(tenant);
  return { body: { webhook_secret: presentSecret(secret) }, headers: SECRET_HEADERS };
});
