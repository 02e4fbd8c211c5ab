import { commandLine } from '#lib/command-line';

// `npm run docs:sync [-- --check]`: writes every figure and table of the README and docs/
// that follows from the rows, the synthesized template or the published results, between
// its markers (./generated-docs.ts). Offline: the stack is synthesized in this process, as
// the infra tests do, in a few seconds. Run it after adding a route, a consumer or a queue,
// changing a row's grants, or publishing a bench run; the docs tests fail until it has run.

const USAGE = `usage: npm run docs:sync [-- --check]
  writes the figures and tables the docs derive from the rows, the synthesized template and
  the published bench results, between their markers
  --check  write nothing; exit 1, naming the pages, when one is not what the command writes`;

const values = commandLine(USAGE, { check: { type: 'boolean' } });

const { generatedParts, pageChanges, writeChanges } = await import('./generated-docs');
const { stackFacts } = await import('./stack-facts');

try {
  const changes = pageChanges(generatedParts(stackFacts()));
  if (changes.length === 0) {
    console.log('every generated figure and table of the docs is up to date');
  } else if (values.check) {
    for (const { page, parts } of changes) console.error(`${page}: ${parts.join(', ')} out of date`);
    console.error('run npm run docs:sync');
    process.exit(1);
  } else {
    writeChanges(changes);
    for (const { page, parts } of changes) console.log(`wrote ${page}: ${parts.join(', ')}`);
  }
} catch (error) {
  // A page that lost its markers, or holds a span no generator writes: the message says which and what to do.
  console.error((error as Error).message);
  process.exit(1);
}
