import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * A Markdown table renders as one only when it starts after a blank line: a table's header
 * written right under another table's last row is read as more rows of the first (its
 * extra cells dropped, its rule a row of dashes), and the second table never appears.
 */
const pages = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((path) =>
  path.endsWith('.md'),
);

const RULE = /^\|\s*:?-{3,}/;

/** The tables of `markdown` whose header sits right under another table: `<line>: <header>`. */
function gluedTables(markdown: string): string[] {
  const lines = markdown.split('\n');
  return lines.flatMap((line, n) =>
    n > 0 && lines[n - 1]?.startsWith('|') && line.startsWith('|') && RULE.test(lines[n + 1] ?? '')
      ? [`${n + 1}: ${line}`]
      : [],
  );
}

describe('the docs’ tables', () => {
  it('each start after a blank line, so each renders as a table of its own', () => {
    const glued = pages.flatMap((page) =>
      gluedTables(readFileSync(join(REPO_ROOT, page), 'utf8')).map((where) => `${page}:${where}`),
    );
    expect(glued, 'put a blank line (and a sentence saying what the table is) before each of these headers').toEqual(
      [],
    );
  });

  it('finds a table glued under another', () => {
    expect(gluedTables('| a |\n| - |\n| 1 |\n| b | c |\n| --- | --- |\n| 2 | 3 |\n')).toEqual(['4: | b | c |']);
    expect(gluedTables('| a |\n| --- |\n| 1 |\n\n| b |\n| --- |\n')).toEqual([]);
  });
});
