// A generated block of a page between two markers (docs/performance.md's latest results,
// docs/testing.md's screening quality figures): read and replaced there only.

/** The markers of one generated block, and the page that holds it. */
export interface DocBlock {
  readonly page: string;
  readonly start: string;
  readonly end: string;
}

/** The text between the block's markers in `doc` (without the newlines that frame it). */
export function blockOf(doc: string, { page, start, end }: DocBlock): string {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${page} has no "${start}" … "${end}" block: put the two markers back`);
  return doc.slice(from + start.length, to).replace(/^\n+|\n+$/g, '');
}

/** `doc` with the block replaced by `text`. */
export function withBlock(doc: string, block: DocBlock, text: string): string {
  blockOf(doc, block); // throws when the markers are missing
  const from = doc.indexOf(block.start) + block.start.length;
  return `${doc.slice(0, from)}\n\n${text}\n\n${doc.slice(doc.indexOf(block.end))}`;
}
