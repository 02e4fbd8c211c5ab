import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ENV, optionalEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import type { Notifier } from './notifier';
import { DisabledNotifier } from './notifier';
import { SesNotifier } from './ses-notifier';

/** SES v2 when `EMAIL_SENDER` is configured; otherwise emails are skipped. Locally, an outbox. */
export const notifier = /* @__PURE__ */ port('notifier', () => {
  const sender = optionalEnv(ENV.emailSender);
  return sender ? new SesNotifier(new SESv2Client({}), sender) : new DisabledNotifier();
});

declare module '#shared/dependencies' {
  interface Dependencies {
    notifier: Notifier;
  }
}
