import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';
import type { GrantUseNote, RecordingProject } from './grant-audit';

// Which test file used which permission at its last run on this clone: every test run adds
// what its files noted (test/grant-audit-setup.ts), each file's entry replaced by its latest
// run. One row's audit (test/audit/audit-grants.ts) reads it to choose the few files likely
// to use the row's permissions. It only ever chooses what runs first: the audit's answer
// comes from the files it runs, so an old or missing index costs time, never a wrong answer.

/** Where the index lives: beside the local runtime's state, not in git. */
export const GRANT_USE_INDEX_PATH = join(REPO_ROOT, '.local', 'grant-uses.json');

/** One test file as its last noted run left it. */
export interface IndexedFile {
  readonly project: RecordingProject;
  readonly ms: number;
  /** When that run ended (epoch milliseconds). */
  readonly at: number;
  readonly uses: readonly string[];
}

/** Test files by their path from the repository root. */
export type GrantUseIndex = Readonly<Record<string, IndexedFile>>;

/**
 * The index with one run's notes in: each file noted replaces its entry (the union of its
 * notes, a file that called the harness twice noting twice); every other file keeps its own.
 */
export function withNotes(index: GrantUseIndex, notes: readonly GrantUseNote[], at: number): GrantUseIndex {
  const ran = new Map<string, { project: RecordingProject; ms: number; uses: Set<string> }>();
  for (const note of notes) {
    const entry = ran.get(note.file) ?? { project: note.project, ms: 0, uses: new Set<string>() };
    for (const use of note.uses) entry.uses.add(use);
    ran.set(note.file, { ...entry, ms: Math.max(entry.ms, note.ms) });
  }
  const next: Record<string, IndexedFile> = { ...index };
  for (const [file, { project, ms, uses }] of ran) next[file] = { project, ms, at, uses: [...uses].sort() };
  return next;
}

/** The index on this clone; empty when there is none yet or it cannot be read. */
export function readGrantUseIndex(path = GRANT_USE_INDEX_PATH): GrantUseIndex {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { files?: GrantUseIndex };
    return parsed.files ?? {};
  } catch {
    return {};
  }
}

/** Writes the index whole, by a rename, so a reader never sees half of it. */
export function writeGrantUseIndex(index: GrantUseIndex, path = GRANT_USE_INDEX_PATH): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify({ files: index }, null, 1)}\n`);
  renameSync(partial, path);
}
