import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmailMessage } from '#domain/notifications';
import type { Notifier } from '#shared/notify/notifier';
import type { RuntimeLog } from '../log';

// Where account-holder emails go locally instead of SES: one readable text file per email
// (To, Subject and Date headers, a blank line, the body) in `dir`, one INFO log line
// naming the file, and the list in memory for tests. Nothing is sent anywhere.

export interface OutboxEmail extends EmailMessage {
  /** ISO time it was "sent". */
  readonly date: string;
  /** The file it was written to. */
  readonly path: string;
}

export class LocalOutbox implements Notifier {
  private readonly sent: OutboxEmail[] = [];
  private counter = 0;

  constructor(
    readonly dir: string,
    private readonly log: RuntimeLog,
  ) {}

  /** Every email sent since start, oldest first. */
  get messages(): readonly OutboxEmail[] {
    return [...this.sent];
  }

  async send(message: EmailMessage): Promise<void> {
    const date = new Date();
    // Sortable by time; the counter tells apart emails of the same millisecond.
    const name = `${date.toISOString().replace(/[:.]/g, '-')}-${String(++this.counter).padStart(4, '0')}.txt`;
    const path = join(this.dir, name);
    await mkdir(this.dir, { recursive: true });
    await writeFile(path, formatEmail(message, date));
    this.sent.push({ ...message, date: date.toISOString(), path });
    // The address stays out of the log: it is the account holder's personal data.
    this.log('info', `email written to the outbox: ${path}`, { subject: message.subject });
  }
}

export function formatEmail(message: EmailMessage, date: Date): string {
  const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');
  return [
    `To: ${oneLine(message.to)}`,
    `Subject: ${oneLine(message.subject)}`,
    `Date: ${date.toUTCString()}`,
    '',
    message.text.endsWith('\n') ? message.text : `${message.text}\n`,
  ].join('\n');
}
