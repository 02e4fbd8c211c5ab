import type { RecordingProject } from './grant-audit';
import type { GrantUseIndex } from './grant-use-index';

// One row's audit (`npm run audit:grants -- <RowId>`, test/audit/audit-grants.ts): which
// test files to run, stage by stage, to learn whether every permission the row grants is
// used by a test. Running fewer files can only leave more permissions unused, never fewer:
// so once the files run have used every permission, nothing is unused, whatever was not
// run; and a permission is reported unused only after every unit and integration test file
// has run, as in the full run. The stages in between only make the common answer quick.

/** A row's own permissions, as the recorders name them (`<row id>: …`): not the shares many rows hold. */
export const ownedBy =
  (rowIds: readonly string[]) =>
  (use: string): boolean =>
    rowIds.some((id) => use.startsWith(`${id}: `));

/**
 * The stages, cheapest first. `unit`: the unit test files that used the permissions at their
 * last run, those that import the rows' handlers, and unit test files changed in the working
 * tree. `integration`: the fewest integration test files that used what is left at their
 * last run, and those changed. `earlier users`: every other file that ever used what is
 * left (a path a file takes only sometimes). `every file`: every unit and integration test
 * file, the full run's two projects, before anything is called unused.
 */
export const STAGES = ['unit', 'integration', 'earlier users', 'every file'] as const;
export type Stage = (typeof STAGES)[number];

export interface AuditState {
  /** The permissions no file run so far has used. */
  readonly remaining: ReadonlySet<string>;
  /** The files run so far. */
  readonly ran: ReadonlySet<string>;
  readonly index: GrantUseIndex;
  /** Unit test files that import one of the rows' handler modules. */
  readonly importers: readonly string[];
  /** Test files the working tree changed or added (git). */
  readonly changed: readonly string[];
}

/** The project a test file belongs to, by its folder (test/vitest.config.ts). */
export const projectOf = (file: string): RecordingProject | undefined =>
  file.startsWith('test/unit/') ? 'unit' : file.startsWith('test/integration/') ? 'integration' : undefined;

/** The files a stage runs, none already run; `all` for the last. Nothing when nothing is left to learn. */
export function filesFor(stage: Stage, state: AuditState): readonly string[] | 'all' {
  if (state.remaining.size === 0) return [];
  if (stage === 'every file') return 'all';
  const changed = (project: RecordingProject) => state.changed.filter((file) => projectOf(file) === project);
  const files =
    stage === 'unit'
      ? [...cheapestCover(state.remaining, state.index, 'unit'), ...state.importers, ...changed('unit')]
      : stage === 'integration'
        ? [...cheapestCover(state.remaining, state.index, 'integration'), ...changed('integration')]
        : Object.entries(state.index)
            .filter(([, entry]) => entry.uses.some((use) => state.remaining.has(use)))
            .map(([file]) => file);
  return [...new Set(files)].filter((file) => !state.ran.has(file)).sort();
}

/**
 * Few files of one project that, at their last run, used every permission of `wanted` any
 * of them used: greedily the file that used the most still uncovered per millisecond it ran.
 */
export function cheapestCover(wanted: ReadonlySet<string>, index: GrantUseIndex, project: RecordingProject): string[] {
  const candidates = Object.entries(index)
    .filter(([, entry]) => entry.project === project)
    .sort(([a], [b]) => a.localeCompare(b));
  const uncovered = new Set(wanted);
  const chosen: string[] = [];
  for (;;) {
    let best: { file: string; score: number; covers: string[] } | undefined;
    for (const [file, entry] of candidates) {
      const covers = entry.uses.filter((use) => uncovered.has(use));
      const score = covers.length / Math.max(entry.ms, 1);
      if (covers.length > 0 && (best === undefined || score > best.score)) best = { file, score, covers };
    }
    if (!best) return chosen;
    chosen.push(best.file);
    for (const use of best.covers) uncovered.delete(use);
  }
}

/** The files among `from` whose imports reach one of `targets`, however deep. */
export function filesReaching(
  edges: ReadonlyMap<string, ReadonlySet<string>>,
  targets: ReadonlySet<string>,
  from: readonly string[],
): string[] {
  const importers = new Map<string, string[]>();
  for (const [file, imported] of edges) {
    for (const target of imported) importers.set(target, [...(importers.get(target) ?? []), file]);
  }
  // Walk the imports backwards from the targets: everything met imports one of them.
  const reaching = new Set(targets);
  const pending = [...targets];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    for (const importer of importers.get(file) ?? []) {
      if (reaching.has(importer)) continue;
      reaching.add(importer);
      pending.push(importer);
    }
  }
  return from.filter((file) => reaching.has(file));
}

/** What running one stage's files gave: whether every test passed, the files run, what they used. */
export interface StageRun {
  readonly passed: boolean;
  readonly files: readonly string[];
  readonly uses: Iterable<string>;
}

export interface StagesInput extends Omit<AuditState, 'remaining' | 'ran'> {
  /** The permissions to find in use (the rows' own, less those on the UNREACHED list). */
  readonly wanted: ReadonlySet<string>;
  /** Stop before the last stage (what is left then is unconfirmed). */
  readonly quick: boolean;
  /** Runs a stage's files (`all`: both recording projects whole); `left` is what it looks for. */
  readonly run: (stage: Stage, files: readonly string[] | 'all', left: ReadonlySet<string>) => StageRun;
}

export interface StagesOutcome {
  /**
   * `answered`: every permission was found in use, or every file ran (what is left is
   * unused, as the full run would say); `quick`: stopped before the last stage, what is left
   * unconfirmed; `failed`: a test failed, no answer.
   */
  readonly end: 'answered' | 'quick' | 'failed';
  readonly used: ReadonlySet<string>;
  readonly ran: ReadonlySet<string>;
  /** The permissions of `wanted` no file run used. */
  readonly left: readonly string[];
}

/** Runs the stages in order until nothing is left to find, a test fails, or every file has run. */
export function runStages({ wanted, quick, run, ...known }: StagesInput): StagesOutcome {
  const used = new Set<string>();
  const ran = new Set<string>();
  const left = () => new Set([...wanted].filter((use) => !used.has(use)));
  const outcome = (end: StagesOutcome['end']): StagesOutcome => ({ end, used, ran, left: [...left()].sort() });
  for (const stage of STAGES) {
    const files = filesFor(stage, { ...known, remaining: left(), ran });
    if (files !== 'all' && files.length === 0) continue;
    if (files === 'all' && quick) return outcome('quick');
    const result = run(stage, files, left());
    for (const file of result.files) ran.add(file);
    for (const use of result.uses) used.add(use);
    if (!result.passed) return outcome('failed');
  }
  return outcome('answered');
}
