import { describe, expect, it } from 'vitest';
import { GRANT_PROBLEMS_HEAD, grantProblems, RECORDING_PROJECTS, readGrantUses } from '#test/support/grant-audit';
import { grantedPortUses } from '#test/support/port-access-recorder';
import { allRowFunctions, grantedUses } from '#test/support/table-access-recorder';
import { declaredCrossing } from '#test/support/tenant-check';
import { UNREACHED } from './unreached';

const used = readGrantUses();
// A run of one project or one file has not run every function's tests: only the full run
// audits. One row's audit, from its own tests alone: `npm run audit:grants -- <RowId>`.
const partialRun = RECORDING_PROJECTS.some((project) => !used.has(project));

describe.skipIf(partialRun)('grants in use (the reverse drift check)', () => {
  it('every table permission, queue, cipher purpose, data key, email and tenant crossing a row grants is used by some test of a function holding it', () => {
    const usedAnywhere = new Set([...used.values()].flatMap((uses) => [...uses]));
    const granted = allRowFunctions().flatMap((fn) => [
      ...grantedUses(fn),
      ...grantedPortUses(fn),
      ...declaredCrossing(fn),
    ]);
    const problems = grantProblems({ granted, used: usedAnywhere, unreached: UNREACHED });
    if (problems.length > 0) throw new Error(`${GRANT_PROBLEMS_HEAD}\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});
