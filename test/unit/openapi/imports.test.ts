import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../lib/repo-root';

const OPENAPI = resolve(REPO_ROOT, 'lib/openapi');
const LOCAL = resolve(REPO_ROOT, 'lib/local');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

/** The relative module specifiers a file imports or re-exports, resolved to absolute paths. */
const relativeImports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.[^']*)'/g)].map((match) => resolve(dirname(file), match[1]));

describe('lib/openapi', () => {
  it('imports nothing of the local runtime (lib/local): the deployed contract does not depend on the stand-in', () => {
    const intoLocal = sourceFiles(OPENAPI).flatMap((file) =>
      relativeImports(file)
        .filter((target) => target === LOCAL || target.startsWith(`${LOCAL}/`))
        .map((target) => `${relative(REPO_ROOT, file)} → ${relative(REPO_ROOT, target)}`),
    );
    expect(intoLocal).toEqual([]);
  });
});
