import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * The table lines (those starting `|`) of a section of a page in docs/, from its heading to
 * the next heading of any level: what a test compares, row by row, with the table it
 * renders from the code.
 */
export function sectionTable(page: string, heading: string): string[] {
  const text = readFileSync(join(REPO_ROOT, 'docs', page), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/${page} has no heading "${heading}": add the section the test renders`);
  const end = text.indexOf('\n#', start + 1);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|'));
}

/** A value as inline code in a table cell. */
export const tick = (value: string) => `\`${value}\``;

/** A markdown table as lines: the headings, a rule as long as each, and a line a row. */
export function markdownTable(headings: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(headings), line(headings.map((heading) => '-'.repeat(heading.length))), ...rows.map(line)];
}
