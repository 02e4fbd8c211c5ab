import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * One word per idea in the README and docs/ (docs/architecture.md#one-word-per-idea-row-and-line):
 * a **row** is a route's or a consumer's definition in lib/service/ ("its row in the route
 * table"); a line of a Markdown table is a **line**. A page that said "a row of its area's
 * table" beside "the route's row" made a newcomer ask which was meant.
 */

const pages = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((path) =>
  path.endsWith('.md'),
);

/** The ways a page speaks of a line of a table as a row. */
const TABLE_ROW = [
  // by its place in a table: "row for row", "the next row", "the rows above", "the worst row"
  /\brow for row\b/gi,
  /\b(?:next|previous|worst|first|second|last) rows?\b/gi,
  /\brows? (?:above|below)\b/gi,
  /\b(?:that|this) row\b(?!['’]s)/gi,
  // as part of a table, but the route table of lib/service/: "a row of its area's table"
  /\brows? (?:of|in) (?!the route table\b)[^.;:()]{0,40}?\btables?\b/gi,
  // as part of a page: "a row in [decisions.md](decisions.md)"
  /\brows? (?:of|in) [^.;:()]{0,20}?(?:\]\()?[\w/-]+\.md\b/gi,
];

/** The prose of a page: code blocks and inline code left out (a key named `deep_rows` is not a word), one line. */
const proseOf = (markdown: string): string =>
  markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`\n]*`/g, '`…`')
    .replace(/\s+/g, ' ');

/** Each place `markdown` calls a line of a table a row, with the words around it. */
function tableRows(markdown: string): string[] {
  const prose = proseOf(markdown);
  return TABLE_ROW.flatMap((pattern) =>
    [...prose.matchAll(pattern)].map((match) => {
      const at = match.index ?? 0;
      return `…${prose.slice(Math.max(0, at - 40), at + match[0].length + 20).trim()}…`;
    }),
  );
}

describe('the README and docs/ say one word per idea', () => {
  it.each(pages)('%s: calls a line of a Markdown table a line, keeping "row" for lib/service/', (page) => {
    expect(
      tableRows(readFileSync(join(REPO_ROOT, page), 'utf8')),
      `${page} calls these lines of a table rows: say "line" (a row is a route's or consumer's definition in lib/service/)`,
    ).toEqual([]);
  });

  it('tells a table’s line from a route’s row', () => {
    expect(tableRows('Its line in the table of docs/data-model.md is the row’s too.')).toEqual([]);
    expect(tableRows('Each row of the route table names its scopes; a row in `lib/service/` grants.')).toEqual([]);
    expect(tableRows('Five lost races in a row answer 409.')).toEqual([]);
    expect(tableRows('Add a row of its area’s route table in docs/api.md.')).toHaveLength(1);
    expect(tableRows('Its rows in the access-pattern table.')).toHaveLength(1);
    expect(tableRows('Implemented row for row in the sandbox; see the next row.')).toHaveLength(2);
    expect(tableRows('That name selects that row; the policy of that row’s tenant role.')).toHaveLength(1);
    expect(tableRows('A difference kept on purpose is a row in [decisions.md](decisions.md).')).toHaveLength(1);
  });
});
