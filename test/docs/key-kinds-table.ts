import { TENANT_RECORD_KEY_KINDS } from '#lib/constructs/tenant-records';
import {
  CONSUMERS,
  IDENTITY_NOTICE_ROUTES,
  NOTICE_ROUTES,
  ROUTES,
  type TableAccess,
  tableAccessOf,
  tableAccessOfRoute,
} from '#lib/service/index';
import { KEY_PREFIX, type KeyKind } from '#shared/db/key-kinds';
import { blockOf, type DocBlock, withBlock } from '#test/support/doc-block';

// docs/data-model.md#who-writes-which-keys: every function and the kinds of key its role
// may write and read, from the rows (a route's with the HTTP stack's share), written
// between markers by `npm run docs:sync`; test/unit/docs/key-kinds.test.ts fails, saying
// to run it, when the page holds another table, so the page cannot drift from the grants.

export const KEY_KINDS_BLOCK: DocBlock = {
  page: 'docs/data-model.md',
  start: '<!-- key-kinds:start: generated from the rows of lib/service by `npm run docs:sync`; do not edit by hand -->',
  end: '<!-- key-kinds:end -->',
};

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

/** The table as the rows give it: one line per function, then the tenant-records provider. */
export function renderKeyKinds(): string {
  const line = (name: string, accesses: readonly TableAccess[]) =>
    `| ${name} | ${kinds(accesses, true)} | ${kinds(accesses, false)} | ${indexesOf(accesses)} |`;
  return [
    '| function | writes | reads | indexes |',
    '| -------- | ------ | ----- | ------- |',
    ...ROUTES.map((route) =>
      line(`\`${route.id}\`${route.localOnly ? ' (local only)' : ''}`, tableAccessOfRoute(route)),
    ),
    ...NOTICE_ROUTES.map((route) => line(`\`${route.id}\` (real rails only)`, tableAccessOfRoute(route))),
    ...IDENTITY_NOTICE_ROUTES.map((route) =>
      line(`\`${route.id}\` (real identity vendor only)`, tableAccessOfRoute(route)),
    ),
    ...CONSUMERS.map((consumer) => line(`\`${consumer.id}\``, tableAccessOf(consumer))),
    `| the tenant-records provider (the stack's custom resources) | ${TENANT_RECORD_KEY_KINDS.map((kind) => `\`${KEY_PREFIX[kind]}\``).join(' ')} | – | – |`,
  ].join('\n');
}

/** The table between the markers of docs/data-model.md, as it stands. */
export const keyKindsBlock = (doc: string): string => blockOf(doc, KEY_KINDS_BLOCK);

/** docs/data-model.md with its table written from the rows. */
export const withKeyKinds = (doc: string): string => withBlock(doc, KEY_KINDS_BLOCK, renderKeyKinds());
