import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The declarations of one of the `increase` SDK's resources (`ach-prenotifications`), as
 * text: the SDK documents some facts (the NACHA code of a return reason) only in its
 * comments, and a test reads them there.
 */
export function increaseTypes(resource: string): string {
  const module = createRequire(import.meta.url).resolve(`increase/resources/${resource}`);
  return readFileSync(module.replace(/\.js$/, '.d.ts'), 'utf8');
}
