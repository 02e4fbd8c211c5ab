import { httpHandler } from '#shared/http/handler';
import { presentSecret, SECRET_HEADERS } from '../present';
import { currentSigningSecret } from '../read-webhook-secret';

/** GET /webhooks/secret — the current signing secret; 404 unknown_webhook_secret before the first. */
export const handler = httpHandler({}, async ({ tenant }) => {
  const secret = await currentSigningSecret(tenant);
  return { body: { webhook_secret: presentSecret(secret) }, headers: SECRET_HEADERS };
});
