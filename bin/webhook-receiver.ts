import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { commandLine } from '#lib/command-line';

// `WEBHOOK_SECRET=whsec_… npm run receiver`: a webhook receiver to try deliveries with,
// on http://127.0.0.1:${RECEIVER_PORT:-4000}/webhooks. It verifies every delivery's
// signature with the `standardwebhooks` package, as a partner's receiver would, prints one
// line per delivery, and answers 204 (401 when the signature does not verify, so the
// service retries it and the attempt shows the failure).

commandLine(
  `usage: WEBHOOK_SECRET=whsec_… npm run receiver
  receives webhooks on http://127.0.0.1:\${RECEIVER_PORT:-4000}/webhooks, verifies each, prints a line per delivery`,
  {},
);
const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('Set WEBHOOK_SECRET to the signing secret (whsec_…) from POST /webhooks/secret.');
  process.exit(2);
}
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const webhook = new Webhook(secret);

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  try {
    // Throws unless the body was signed with the secret, within the last five minutes.
    const event = webhook.verify(body, req.headers as Record<string, string>) as EventEnvelope;
    console.log(`verified  ${event.event_type}  ${summary(event)}  webhook-id=${req.headers['webhook-id']}`);
    res.writeHead(204).end();
  } catch (error) {
    console.log(`REFUSED   ${req.method} ${req.url}: ${(error as Error).message}`);
    res.writeHead(401).end();
  }
});
server.listen(port, '127.0.0.1', () => {
  console.log(`Receiving webhooks on http://127.0.0.1:${port}/webhooks (Ctrl-C stops)`);
});

interface EventEnvelope {
  readonly event_type: string;
  readonly event_data: Record<string, Record<string, unknown> | undefined>;
}

/** The record's id and statuses, e.g. `account 5f…: verification_status=verified`. */
function summary(event: EventEnvelope): string {
  const [kind, record] = Object.entries(event.event_data)[0] ?? [];
  if (!kind || !record) return '';
  const statuses = Object.entries(record)
    .filter(([name]) => name === 'status' || name.endsWith('_status'))
    .map(([name, value]) => `${name}=${value}`);
  return `${kind} ${record.id}: ${statuses.join(' ')}`;
}
