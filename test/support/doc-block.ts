// Text of a page that a command writes, never a person: a block between two markers
// (docs/performance.md's latest results, docs/testing.md's screening quality figures,
// docs/data-model.md's who writes which keys, docs/api.md's screening costs), or a figure
// inside a sentence between two inline markers (the counts of the stack, `npm run docs:sync`).
// Read and replaced there only.

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

/**
 * A figure written inside a sentence: `<!-- docs:sync routes -->24<!-- /docs:sync -->`.
 * Markdown shows only the figure; the name says which figure the command writes there.
 */
const SPAN = /<!-- docs:sync ([\w-]+) -->(.*?)<!-- \/docs:sync -->/g;

/** The markers of a span named `name` around `text`: what a page holds where it states that figure. */
export const spanText = (name: string, text: string) => `<!-- docs:sync ${name} -->${text}<!-- /docs:sync -->`;

/** Every span of `doc`, in order: its name and the text it holds now. */
export function spansOf(doc: string): { name: string; text: string }[] {
  return [...doc.matchAll(SPAN)].map((found) => ({ name: found[1] as string, text: found[2] as string }));
}

/**
 * `doc` with every span holding the figure `figures` gives under its name. Throws when the
 * page has a span no figure is given for, or lacks a figure's span: a generated figure that
 * no longer has its place, or a place no generator writes, is a mistake to mend by hand.
 */
export function withSpans(doc: string, page: string, figures: Readonly<Record<string, string>>): string {
  const named = new Set(spansOf(doc).map((span) => span.name));
  const unknown = [...named].filter((name) => !(name in figures));
  if (unknown.length > 0) {
    throw new Error(
      `${page} has docs:sync spans no generator writes (${unknown.join(', ')}): name a figure the generator gives, or remove the markers`,
    );
  }
  const startingLine = /^<!-- docs:sync ([\w-]+) -->/m.exec(doc);
  if (startingLine) {
    throw new Error(
      `${page} has the docs:sync span ${startingLine[1]} at the start of a line, where Markdown reads it as an HTML block that ends the paragraph: put the word before it on its line`,
    );
  }
  const missing = Object.keys(figures).filter((name) => !named.has(name));
  if (missing.length > 0) {
    throw new Error(
      `${page} no longer states ${missing.join(', ')}: put ${spanText(missing[0] as string, '…')} back where the page states it, or drop the figure from its generator`,
    );
  }
  return doc.replace(SPAN, (_, name: string) => spanText(name, figures[name] as string));
}
