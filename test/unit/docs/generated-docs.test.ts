import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { DOC_PAGES, GENERATED_BLOCKS, readPage } from '#test/docs/generated-docs';
import { spanText, withSpans } from '#test/support/doc-block';

/**
 * Every generated part of the docs is one `npm run docs:sync` writes (test/docs/generated-docs.ts):
 * a block of another name, or in another page, would be text no command keeps. Each part's
 * own test holds it to its source (test/unit/docs/key-kinds.test.ts, test/unit/bench/,
 * test/infra/docs-numbers.test.ts).
 */

const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');
// Counted work, not time: the command loads its modules (a few seconds when busy).
const SLOW = { timeout: 120_000 };

describe('the generated parts of the docs', () => {
  it('are each a block the command writes, on its own page', () => {
    const found = DOC_PAGES.flatMap((page) =>
      [...readPage(page).matchAll(/<!-- ([\w-]+):start:[^\n]*-->/g)].map((marker) => `${page} ${marker[0]}`),
    );
    expect(found.sort()).toEqual(GENERATED_BLOCKS.map((block) => `${block.page} ${block.start}`).sort());
  });

  it('hold a figure inside a sentence between docs:sync markers, written by name, never at the start of a line', () => {
    const page = `It has ${spanText('routes', '24')} routes and ${spanText('alarms', '80')} alarms.\n`;

    expect(withSpans(page, 'docs/x.md', { routes: '25', alarms: '86' })).toBe(
      `It has ${spanText('routes', '25')} routes and ${spanText('alarms', '86')} alarms.\n`,
    );
    expect(() => withSpans(page, 'docs/x.md', { routes: '25' })).toThrow(/spans no generator writes \(alarms\)/);
    expect(() => withSpans(page, 'docs/x.md', { routes: '25', alarms: '86', queues: '5' })).toThrow(
      /no longer states queues: put <!-- docs:sync queues -->…<!-- \/docs:sync --> back/,
    );
    expect(() => withSpans(`It has\n${spanText('routes', '24')} routes.\n`, 'docs/x.md', { routes: '25' })).toThrow(
      /at the start of a line/,
    );
  });
});

describe('npm run docs:sync', () => {
  const sync = (args: string[]) =>
    spawnSync(TSX, ['test/docs/sync.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });

  it('answers --help with its usage and exit 0, before it synthesizes anything', SLOW, () => {
    const answer = sync(['--help']);
    expect(answer.stdout).toMatch(/^usage: npm run docs:sync/);
    expect(answer.status).toBe(0);
  });

  it('answers an unknown option with one sentence naming it, its usage, and exit 2', SLOW, () => {
    const answer = sync(['--no-such-option']);
    expect(answer.stderr.split('\n')[0]).toBe('unknown option --no-such-option');
    expect(answer.status).toBe(2);
  });
});
