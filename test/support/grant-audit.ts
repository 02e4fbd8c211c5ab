import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The reverse check of the grants (issue 22): a permission a row grants and no test of any
// function holding it uses is either drift (the code stopped needing it) or a path no test
// reaches. Each test file notes what its functions used; the `audit` project, which the
// full run starts after every other (test/vitest.config.ts), reads every file's notes.

/** The directory of this run's notes: set by test/grant-audit-setup.ts for the whole run. */
export const GRANT_USES_DIR_ENV = 'VERIFY_GRANT_USES_DIR';

/** The projects whose notes the audit needs: without both, a partial run, which it does not audit. */
export const RECORDING_PROJECTS = ['unit', 'integration'] as const;

/** Writes one test file's used permissions for the audit (nothing when the run has no notes directory). */
export function writeGrantUses(project: (typeof RECORDING_PROJECTS)[number], uses: Iterable<string>): void {
  const dir = process.env[GRANT_USES_DIR_ENV];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${project}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify([...uses]));
}

/** Every permission noted in this run, by the project that noted it. */
export function readGrantUses(): Map<string, Set<string>> {
  const byProject = new Map<string, Set<string>>();
  const dir = process.env[GRANT_USES_DIR_ENV];
  if (!dir) return byProject;
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
    const project = name.slice(0, name.indexOf('-'));
    const uses = byProject.get(project) ?? new Set<string>();
    for (const use of JSON.parse(readFileSync(join(dir, name), 'utf8')) as string[]) uses.add(use);
    byProject.set(project, uses);
  }
  return byProject;
}
