import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineWithArguments, usageError } from '#lib/command-line';
import { REPO_ROOT } from '#lib/repo-root';
import { GRANT_PROBLEMS_HEAD, GRANT_USES_DIR_ENV, grantProblems, readGrantUseNotes } from '#test/support/grant-audit';
import { filesReaching, ownedBy, projectOf, runStages, type Stage } from '#test/support/grant-audit-plan';
import { type GrantUseIndex, readGrantUseIndex } from '#test/support/grant-use-index';
import { importGraph, sourceFiles } from '#test/support/import-graph';
import { grantedPortUses } from '#test/support/port-access-recorder';
import { type FunctionUnderTest, grantedUses, rowFunction } from '#test/support/table-access-recorder';
import { declaredCrossing } from '#test/support/tenant-check';
import { UNREACHED } from './unreached';

// `npm run audit:grants -- <RowId> [<RowId> …] [--quick]`: the reverse drift check for the
// rows named alone, from the tests that use them (docs/testing.md#one-rows-audit). It runs
// the files likely to use the rows' own permissions first (test/support/grant-audit-plan.ts)
// and stops as soon as every permission is used; a permission it is about to call unused is
// first held to every unit and integration test file, so it answers what the full run's
// audit answers for those rows. `--quick` stops before that last stage and says what is
// left, unconfirmed. Exit status: 0 every permission used; 1 some unused (or a stale
// UNREACHED entry), or a test failed; 2 a wrong argument; 3 `--quick` left some unconfirmed.

const USAGE = `usage: npm run audit:grants -- <RowId> [<RowId> …] [--quick]
  <RowId>  a route or consumer id of lib/service
  --quick  stop before holding an unused permission to every test file (exit 3 if any is left unconfirmed)`;
const { positionals: rowIds, values } = commandLineWithArguments(USAGE, { quick: { type: 'boolean', default: false } });
if (rowIds.length === 0) usageError(USAGE, 'name at least one row');
const unknown = rowIds.filter((id) => rowFunction(id) === undefined);
if (unknown.length > 0) usageError(USAGE, `no route or consumer ${unknown.join(', ')} in lib/service`);
const functions = rowIds.map((id) => rowFunction(id) as FunctionUnderTest);

// The rows' own permissions; the HTTP stack's and the list positions' shares stay the full run's.
const own = ownedBy(rowIds);
const granted = functions
  .flatMap((fn) => [...grantedUses(fn), ...grantedPortUses(fn), ...declaredCrossing(fn)])
  .filter(own);
const unreached = Object.fromEntries(Object.entries(UNREACHED).filter(([use]) => own(use)));
const wanted = new Set(granted.filter((use) => !(use in unreached)));

const TEST_FILES = sourceFiles(REPO_ROOT, ['test/unit', 'test/integration']).filter((file) =>
  file.endsWith('.test.ts'),
);
const exists = (file: string) => existsSync(join(REPO_ROOT, file));
const index: GrantUseIndex = Object.fromEntries(Object.entries(readGrantUseIndex()).filter(([file]) => exists(file)));

/** Unit test files that import one of the rows' handlers, however deep. */
function importersOfHandlers(): string[] {
  const graph = importGraph(REPO_ROOT, ['test', 'functions', 'lib']);
  const unitFiles = TEST_FILES.filter((file) => projectOf(file) === 'unit');
  return filesReaching(graph.edges, new Set(functions.map((fn) => fn.row.handler)), unitFiles);
}

/** Test files the working tree has changed or added, which no earlier run may have noted as they are now. */
function changedTestFiles(): string[] {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'test'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return status
    .split('\n')
    .map((line) => line.slice(3).split(' -> ').at(-1) ?? '')
    .filter((file) => file.endsWith('.test.ts') && projectOf(file) !== undefined && exists(file));
}

/** Runs vitest on these files (or both recording projects whole), its notes to `notesDir`; whether every test passed. */
function runTests(files: readonly string[] | 'all', notesDir: string): boolean {
  const selection = files === 'all' ? ['--project', 'unit', '--project', 'integration'] : files;
  const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(
    process.execPath,
    [vitest, 'run', '--config', 'test/vitest.config.ts', '--silent=passed-only', ...selection],
    { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, [GRANT_USES_DIR_ENV]: notesDir } },
  );
  return run.status === 0;
}

const WHY: Record<Stage, string> = {
  unit: 'unit test files that used these permissions at their last run, import the handler, or changed',
  integration: 'the fewest integration test files that used what is left at their last run, and those changed',
  'earlier users': 'every other file that ever used what is left',
  'every file': 'every unit and integration test file, before calling anything unused',
};

const started = performance.now();
const testFiles = (count: number) => `${count} test file${count === 1 ? '' : 's'}`;
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const listed = (uses: Iterable<string>) => [...uses].map((use) => `  ${use}`).join('\n');

/** Runs one stage through vitest, saying what and why first; what its files noted. */
function runStage(notesRoot: string, stage: Stage, files: readonly string[] | 'all', left: ReadonlySet<string>) {
  if (files === 'all') {
    console.log(`\nNot used by the files run so far (unconfirmed):\n${listed(left)}`);
  }
  console.log(`\n▸ ${stage} (${WHY[stage]}): ${files === 'all' ? 'all' : `${files.length}: ${files.join(' ')}`}`);
  const notesDir = join(notesRoot, stage.replace(/ /g, '-'));
  mkdirSync(notesDir);
  const passed = runTests(files, notesDir);
  const uses = readGrantUseNotes(notesDir).flatMap((note) => note.uses);
  return { passed, files: files === 'all' ? TEST_FILES : files, uses };
}

/** The audit of the rows, told on the console; its exit status. */
function audit(notesRoot: string): number {
  console.log(`audit:grants ${rowIds.join(' ')}: ${wanted.size} of the rows' own permissions to find in use`);
  const { end, used, ran, left } = runStages({
    wanted,
    quick: values.quick === true,
    index,
    importers: importersOfHandlers(),
    changed: changedTestFiles(),
    run: (stage, files, remaining) => runStage(notesRoot, stage, files, remaining),
  });
  if (end === 'failed') {
    console.error(
      `\naudit:grants: a test failed (above), and a failing test may stop before it sends what the row grants: fix it, then audit again. No answer (${seconds()}).`,
    );
    return 1;
  }
  if (end === 'quick') {
    const why =
      ran.size === 0
        ? 'No test file is known to use these (.local/grant-uses.json, the index of earlier runs, names none)'
        : `Not used by the ${testFiles(ran.size)} run (unconfirmed: some other file may use them)`;
    console.log(`\n${why}:\n${listed(left)}\n--quick: stopped before running every test file (${seconds()}).`);
    return 3;
  }
  const problems = grantProblems({ granted, used, unreached });
  if (problems.length > 0) {
    console.error(`\n${GRANT_PROBLEMS_HEAD}\n${problems.join('\n')}\n(${testFiles(ran.size)}, ${seconds()})`);
    return 1;
  }
  console.log(
    wanted.size === 0
      ? `\naudit:grants ${rowIds.join(' ')}: the rows grant nothing of their own to audit.`
      : `\naudit:grants ${rowIds.join(' ')}: every permission of the rows' own is used by a test (${testFiles(ran.size)}, ${seconds()}).`,
  );
  return 0;
}

const notesRoot = mkdtempSync(join(tmpdir(), 'verify-row-audit-'));
let status = 1;
try {
  status = audit(notesRoot);
} finally {
  rmSync(notesRoot, { recursive: true, force: true });
}
process.exit(status);
