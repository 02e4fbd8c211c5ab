import { createHash } from 'node:crypto';
import { KEY_PREFIX } from '../key-kinds';
import type { IndexQuery } from '../paging/index-query';
import { canonical, type ListKind } from './item';

export const positionKeys = {
  cursor: (tenant: string, cursor: string) => ({
    pk: `${KEY_PREFIX.listPosition}${tenant}#C#${cursor}`,
    sk: 'POSITION',
  }),
  /**
   * Lists with a bookmark hold no secret in their filter, and an account number enters any
   * list's walk only as the keyed digest naming its partition: the hash only bounds the
   * key's length (test/integration/pii/list-positions.test.ts).
   */
  bookmark: (tenant: string, kind: ListKind, query: IndexQuery, count: number) => {
    const digest = createHash('sha256')
      .update(JSON.stringify([kind, canonical(query)]))
      .digest('base64url');
    return { pk: `${KEY_PREFIX.listPosition}${tenant}#B#${digest}#${count}`, sk: 'POSITION' };
  },
};
