import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TENANT_RECORD_KEY_KINDS } from '#lib/constructs/tenant-records';
import { REPO_ROOT } from '#lib/repo-root';
import {
  CONSUMERS,
  NOTICE_ROUTES,
  ROUTES,
  type TableAccess,
  tableAccessOf,
  tableAccessOfRoute,
} from '#lib/service/index';
import { KEY_PREFIX, type KeyKind } from '#shared/db/key-kinds';

/**
 * docs/data-model.md#who-writes-which-keys is a table of every function and the kinds of
 * key its role may write and read, derived here from the rows (a route's with the HTTP
 * stack's share), so the page cannot drift from the grants.
 */

const WRITES: readonly string[] = ['PutItem', 'UpdateItem', 'DeleteItem'];
const KIND_ORDER = Object.keys(KEY_PREFIX) as KeyKind[];

const kinds = (accesses: readonly TableAccess[], writing: boolean): string => {
  const reached = new Set(
    accesses
      .filter((access) => access.actions.some((action) => WRITES.includes(action) === writing))
      .flatMap((access) => access.leadingKeys ?? []),
  );
  const named = KIND_ORDER.filter((kind) => reached.has(kind)).map((kind) => `\`${KEY_PREFIX[kind]}\``);
  return named.length > 0 ? named.join(' ') : '–';
};

const indexesOf = (accesses: readonly TableAccess[]): string => {
  const indexes = [...new Set(accesses.flatMap((access) => access.indexes ?? []))].sort();
  return indexes.length > 0 ? indexes.map((index) => `\`${index}\``).join(' ') : '–';
};

/** The page's table as the rows give it: one line per function, then the tenant-records provider. */
function keyKindsTable(): string[] {
  const line = (name: string, accesses: readonly TableAccess[]) =>
    `| ${name} | ${kinds(accesses, true)} | ${kinds(accesses, false)} | ${indexesOf(accesses)} |`;
  return [
    '| function | writes | reads | indexes |',
    '| -------- | ------ | ----- | ----------------------------- |',
    ...ROUTES.map((route) =>
      line(`\`${route.id}\`${route.localOnly ? ' (local only)' : ''}`, tableAccessOfRoute(route)),
    ),
    ...NOTICE_ROUTES.map((route) => line(`\`${route.id}\` (real rails only)`, tableAccessOfRoute(route))),
    ...CONSUMERS.map((consumer) => line(`\`${consumer.id}\``, tableAccessOf(consumer))),
    `| the tenant-records provider (the stack's custom resources) | ${TENANT_RECORD_KEY_KINDS.map((kind) => `\`${KEY_PREFIX[kind]}\``).join(' ')} | – | – |`,
  ];
}

/** The first table after the heading `## Who writes which keys`. */
function documentedTable(): string[] {
  const page = readFileSync(join(REPO_ROOT, 'docs/data-model.md'), 'utf8').split('\n');
  const heading = page.indexOf('## Who writes which keys');
  if (heading < 0) throw new Error('docs/data-model.md has no section "## Who writes which keys"');
  const start = page.findIndex((text, n) => n > heading && text.startsWith('|'));
  const end = page.findIndex((text, n) => n > start && !text.startsWith('|'));
  return page.slice(start, end);
}

describe('docs/data-model.md: who writes which keys', () => {
  it('lists every function with the key kinds its row (and the HTTP stack’s share) lets it write and read', () => {
    expect(documentedTable()).toEqual(keyKindsTable());
  });
});
