import type { EmailMessage } from '#domain/notifications';

/** Emails to account holders. SES in AWS when a sender is configured; an outbox locally. */
export interface Notifier {
  send(message: EmailMessage): Promise<void>;
}

/** When no sender identity is configured, emails are skipped (and logged by the caller). */
export class DisabledNotifier implements Notifier {
  readonly disabled = true;
  async send(): Promise<void> {}
}
