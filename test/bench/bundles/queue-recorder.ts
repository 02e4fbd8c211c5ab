import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_ACCOUNT_ID } from '#lib/local/aws-account';
import type { QueueId } from '#shared/queue/message-queue';

/**
 * SQS as far as the service's functions use it (`SendMessageBatch`, AWS JSON 1.0), on a
 * loopback port: every message is accepted and kept, so what one function sends becomes
 * the next function's input, as the queues of the stack carry them. Bundled functions
 * reach it through `AWS_ENDPOINT_URL_SQS`; no message ever leaves the machine.
 */
export interface QueueRecorder {
  readonly endpoint: string;
  /** The queue URL a function finds in its `<QUEUE>_URL` variable. */
  urlOf(queue: QueueId): string;
  /** Every body sent to the queue so far, oldest first. */
  bodies(queue: QueueId): readonly string[];
  stop(): Promise<void>;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

export async function startQueueRecorder(): Promise<QueueRecorder> {
  const sent = new Map<string, string[]>();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => answer(response, 500, { message: String(error) }));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const action = String(request.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
      QueueUrl?: string;
      MessageBody?: string;
      Entries?: { Id: string; MessageBody: string }[];
    };
    const queue =
      String(input.QueueUrl ?? '')
        .split('/')
        .pop() ?? '';
    const kept = sent.get(queue) ?? [];
    sent.set(queue, kept);
    if (action === 'SendMessageBatch') {
      const entries = input.Entries ?? [];
      kept.push(...entries.map((entry) => entry.MessageBody));
      answer(response, 200, {
        Successful: entries.map((entry) => ({
          Id: entry.Id,
          MessageId: randomUUID(),
          MD5OfMessageBody: md5(entry.MessageBody),
        })),
        Failed: [],
      });
    } else if (action === 'SendMessage' && input.MessageBody !== undefined) {
      kept.push(input.MessageBody);
      answer(response, 200, { MessageId: randomUUID(), MD5OfMessageBody: md5(input.MessageBody) });
    } else {
      answer(response, 400, { __type: 'com.amazonaws.sqs#InvalidAction', message: `not recorded: ${action}` });
    }
  }

  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    urlOf: (queue) => `${endpoint}/${LOCAL_ACCOUNT_ID}/${queue}`,
    bodies: (queue) => sent.get(queue) ?? [],
    stop: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
  response.end(JSON.stringify(body));
}
