import { writeFile } from 'node:fs/promises';
import { commandLine } from '#lib/command-line';

// `npm run --silent openapi [-- --out <file>]`: the service's OpenAPI 3.1 document, generated
// from the code (lib/openapi). Only the document goes to stdout, so it can be piped.

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

const values = commandLine(
  'usage: npm run --silent openapi [-- --out <file>]\n  the OpenAPI document, to stdout or the file',
  {
    out: { type: 'string' },
  },
);
const { openApiDocument } = await import('#lib/openapi/document');
const json = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
if (values.out) await writeFile(values.out, json);
else process.stdout.write(json);
