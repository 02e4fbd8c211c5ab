// CSV as OFAC and the service's own lists write it (RFC 4180), each row with the line it
// starts on, so that a malformed list names the file and the line to fix.

// OFAC ends its files with a DOS end-of-file mark (control-Z) on a line of its own.
const END_OF_FILE = '\u001a';

export interface CsvRow {
  readonly cells: string[];
  /** The line the row starts on, from 1. */
  readonly line: number;
}

/** A list file that cannot be read: which file, which line, and why. */
export class ListFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}, line ${line}: ${reason}`);
    this.name = 'ListFileError';
  }
}

/**
 * RFC 4180: fields separated by commas, rows by CRLF or LF; a field that starts with a
 * double quote runs to the closing quote, commas and line breaks included, and `""`
 * inside it is one quote. A quote inside an unquoted field is taken literally. Rows
 * with nothing but blanks (or the control-Z) are dropped. A quote left open at the end
 * is an error naming the line it opened on (`file` names the file in it).
 */
export function parseCsvRows(text: string, file = 'CSV'): CsvRow[] {
  const rows: CsvRow[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRow = () => {
    row.push(field);
    if (row.some((cell) => cell.trim() !== '' && cell.trim() !== END_OF_FILE)) rows.push({ cells: row, line: rowLine });
    row = [];
    field = '';
    rowLine = line;
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\n' || (char === '\r' && source[i + 1] !== '\n')) line++;
    if (quoted) {
      if (char !== '"') field += char;
      else if (source[i + 1] === '"') field += source[++i];
      else quoted = false;
    } else if (char === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') endRow();
    else if (char === '\r') {
      if (source[i + 1] === '\n') {
        i++;
        line++;
      }
      endRow();
    } else field += char;
  }
  if (quoted) throw new ListFileError(file, quoteLine, 'a quoted field is never closed');
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** The rows' cells alone. */
export const parseCsv = (text: string): string[][] => parseCsvRows(text).map((row) => row.cells);
