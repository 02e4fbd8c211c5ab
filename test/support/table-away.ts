import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#shared/db/document-client';
import type { ItemKey } from '#shared/db/items';
import { tenantScope } from '#shared/tenant-scope';

/**
 * The table goes away right after a request did its work: the handlers' client sends the
 * first write of an HTTP request `isTheWork` picks, answers it, and from then on refuses every call an HTTP
 * request makes with a refused connection, as a table that is no longer there, until the
 * returned function puts it back. So a request's work lands and whatever it writes after
 * it does not. The pipeline's consumers still reach the table: the test is about the
 * request, and a worker whose messages were dead-lettered meanwhile would leave what the
 * next request needs undone.
 */
export function tableAwayAfter(isTheWork: (command: unknown) => boolean): () => void {
  const client = documentClient();
  const send = client.send.bind(client) as (command: unknown, options?: unknown) => Promise<unknown>;
  let away = false;
  Object.assign(client, {
    send: async (command: unknown, options?: unknown) => {
      if (away && tenantScope()?.of === 'request') {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
      }
      const out = await send(command, options);
      if (tenantScope()?.of === 'request' && isTheWork(command)) away = true;
      return out;
    },
  });
  return () => Object.assign(client, { send });
}

/** `send`'s answer while the table goes away after the write `isTheWork` picks; it is back after. */
export async function withTheTableAwayAfter<T>(
  isTheWork: (command: unknown) => boolean,
  send: () => Promise<T>,
): Promise<T> {
  const back = tableAwayAfter(isTheWork);
  try {
    return await send();
  } finally {
    back();
  }
}

/** A write (alone or in a transaction) that puts an item of `entity`. */
export const putsItemOf =
  (entity: string) =>
  (command: unknown): boolean =>
    writesOf(command).some((write) => write.item?.entity === entity);

/** A write (alone or in a transaction) of the item under `key`: a put, an update or a delete. */
export const writesItem =
  (key: ItemKey) =>
  (command: unknown): boolean =>
    writesOf(command).some(({ item, key: written }) => {
      const at = written ?? item;
      return at?.pk === key.pk && at?.sk === key.sk;
    });

interface Write {
  readonly item?: Record<string, unknown>;
  readonly key?: Record<string, unknown>;
}

function writesOf(command: unknown): Write[] {
  if (command instanceof PutCommand) return [{ item: command.input.Item }];
  if (command instanceof UpdateCommand || command instanceof DeleteCommand) return [{ key: command.input.Key }];
  if (command instanceof TransactWriteCommand) {
    return (command.input.TransactItems ?? []).map((entry) => ({
      item: entry.Put?.Item,
      key: entry.Update?.Key ?? entry.Delete?.Key,
    }));
  }
  return [];
}
