import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#shared/db/document-client';

/**
 * A write that landed but whose answer was lost on the way back (the SDK's request timed
 * out after DynamoDB applied it, a connection reset): the handlers' client answers the
 * first write that puts an item of `entity` (a put, or a put inside a transaction) with a
 * timeout once DynamoDB has applied it. Returns what puts the client back.
 */
export function loseTheAnswerOfTheFirstWriteOf(entity: string): () => void {
  const client = documentClient();
  const send = client.send.bind(client) as (command: unknown, options?: unknown) => Promise<unknown>;
  let lost = false;
  Object.assign(client, {
    send: async (command: unknown, options?: unknown) => {
      const out = await send(command, options);
      if (!lost && putsItemOf(command, entity)) {
        lost = true;
        throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError', code: 'ECONNRESET' });
      }
      return out;
    },
  });
  return () => Object.assign(client, { send });
}

function putsItemOf(command: unknown, entity: string): boolean {
  if (command instanceof PutCommand) return command.input.Item?.entity === entity;
  if (command instanceof TransactWriteCommand) {
    return (command.input.TransactItems ?? []).some((item) => item.Put?.Item?.entity === entity);
  }
  return false;
}

/** `send`'s answer while the first write of `entity` loses its answer. */
export async function losingTheAnswerOf<T>(entity: string, send: () => Promise<T>): Promise<T> {
  const restore = loseTheAnswerOfTheFirstWriteOf(entity);
  try {
    return await send();
  } finally {
    restore();
  }
}
