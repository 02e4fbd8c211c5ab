/** A plain-text table for the terminal: numbers right-aligned, everything else left-aligned. */
export function textTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  // A column of numbers (blanks allowed, e.g. in a total row) is right-aligned.
  const numeric = headers.map(
    (_, column) =>
      rows.some((row) => typeof row[column] === 'number') &&
      rows.every((row) => typeof row[column] === 'number' || row[column] === ''),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(cells[0] ?? []), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)];
}

/** A count per verification: whole numbers as they are, fractions to two decimals. */
export const perVerification = (value: number): number => Number(value.toFixed(Number.isInteger(value) ? 0 : 2));
