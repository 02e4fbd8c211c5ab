import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';

// The reverse check of the grants (issue 22): a permission a row grants and no test of any
// function holding it uses is either drift (the code stopped needing it) or a path no test
// reaches. Each test file notes what its functions used; the `audit` project, which the
// full run starts after every other (test/vitest.config.ts), reads every file's notes, and
// `npm run audit:grants -- <RowId>` reads the notes of the files it ran for one row
// (test/audit/audit-grants.ts). What the audit decides from the notes is here too.

/** The directory of this run's notes: set by test/grant-audit-setup.ts for the whole run. */
export const GRANT_USES_DIR_ENV = 'VERIFY_GRANT_USES_DIR';

/** The projects whose notes the audit needs: without both, a partial run, which it does not audit. */
export const RECORDING_PROJECTS = ['unit', 'integration'] as const;
export type RecordingProject = (typeof RECORDING_PROJECTS)[number];

/** What one test file used: its project, its path from the repository root, how long it ran. */
export interface GrantUseNote {
  readonly project: RecordingProject;
  readonly file: string;
  /** From its first import of this module to its note, in milliseconds: what running it again costs, roughly. */
  readonly ms: number;
  readonly uses: readonly string[];
}

// Modules are loaded afresh for every test file, so this is when the file began.
const loadedAt = performance.now();

/**
 * Writes one test file's used permissions for the audit (nothing when the run has no notes
 * directory). `testPath` is the file's (vitest's `expect.getState().testPath`).
 */
export function writeGrantUses(project: RecordingProject, uses: Iterable<string>, testPath: string): void {
  const dir = process.env[GRANT_USES_DIR_ENV];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const note: GrantUseNote = {
    project,
    file: isAbsolute(testPath) ? relative(REPO_ROOT, testPath) : testPath,
    ms: Math.round(performance.now() - loadedAt),
    uses: [...uses],
  };
  const name = `${project}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`;
  writeFileSync(join(dir, name), JSON.stringify(note));
}

/** Every note in a directory of notes (this run's by default). */
export function readGrantUseNotes(dir = process.env[GRANT_USES_DIR_ENV]): GrantUseNote[] {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as GrantUseNote);
}

/** Every permission noted in this run, by the project that noted it. */
export function readGrantUses(): Map<string, Set<string>> {
  const byProject = new Map<string, Set<string>>();
  for (const { project, uses } of readGrantUseNotes()) {
    const noted = byProject.get(project) ?? new Set<string>();
    for (const use of uses) noted.add(use);
    byProject.set(project, noted);
  }
  return byProject;
}

/** What the audit was given: the permissions granted, those the tests used, and those no test can reach, with why. */
export interface AuditInput {
  readonly granted: Iterable<string>;
  readonly used: ReadonlySet<string>;
  readonly unreached: Readonly<Record<string, string>>;
}

/**
 * Each granted permission no test used (and not on the UNREACHED list), and each entry of
 * that list that is stale: used after all, or granted by no row. Empty when all is well.
 */
export function grantProblems({ granted, used, unreached }: AuditInput): string[] {
  const grants = new Set(granted);
  const unused = [...grants].filter((use) => !used.has(use) && !(use in unreached)).sort();
  const stale = Object.keys(unreached).filter((use) => used.has(use) || !grants.has(use));
  return [
    ...unused.map((use) => `${use}: granted, and no test of a function holding it sends it`),
    ...stale.map(
      (use) => `${use}: on the UNREACHED list, but ${grants.has(use) ? 'a test uses it' : 'no row grants it'}`,
    ),
  ];
}

/** The head of the audit's failure: the three ways out. */
export const GRANT_PROBLEMS_HEAD =
  'Grants no test uses (drop them from the row in lib/service, add a test that sends them, or list them in UNREACHED, test/audit/unreached.ts, with why):';
