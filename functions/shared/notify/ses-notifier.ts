import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { EmailMessage } from '#domain/notifications';
import type { Notifier } from './notifier';

export class SesNotifier implements Notifier {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    await this.ses.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  }
}
