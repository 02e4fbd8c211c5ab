import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { KEY_KINDS_BLOCK, keyKindsBlock, renderKeyKinds } from '#test/docs/key-kinds-table';

/**
 * docs/data-model.md#who-writes-which-keys is a table of every function and the kinds of
 * key its role may write and read, written from the rows (a route's with the HTTP stack's
 * share) by `npm run docs:sync` (test/docs/key-kinds-table.ts), so the page cannot drift
 * from the grants.
 */

describe('docs/data-model.md: who writes which keys', () => {
  it('lists every function with the key kinds its row (and the HTTP stack’s share) lets it write and read', () => {
    const page = readFileSync(join(REPO_ROOT, KEY_KINDS_BLOCK.page), 'utf8');
    expect(keyKindsBlock(page), 'run npm run docs:sync').toBe(renderKeyKinds());
  });
});
