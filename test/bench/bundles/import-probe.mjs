// One fresh process, one module initialisation: imports the bundle named on the command
// line and writes how long the import took (ms) to stdout. Nothing else runs before the
// import, so the figure is the bundle's own load, parse, compile and top-level code,
// source map included when NODE_OPTIONS asks for it (as the stack's functions do).
import { pathToFileURL } from 'node:url';

const started = performance.now();
await import(pathToFileURL(process.argv[2]).href);
const ms = performance.now() - started;
process.stdout.write(`${ms}\n`);
process.exit(0);
