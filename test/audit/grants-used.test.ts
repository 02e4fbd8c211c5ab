import { describe, expect, it } from 'vitest';
import { RECORDING_PROJECTS, readGrantUses } from '#test/support/grant-audit';
import { grantedPortUses } from '#test/support/port-access-recorder';
import { allRowFunctions, grantedUses } from '#test/support/table-access-recorder';
import { declaredCrossing } from '#test/support/tenant-check';

/**
 * Permissions no test can reach, each with why. A key reads `<row id>: <action> [on <leading
 * keys>]`, or `shared: …` for an access many rows hold (the HTTP stack's share, the list
 * positions'), which counts as used when a test of any of them uses it.
 */
const UNREACHED: Readonly<Record<string, string>> = {
  // upsertPerson replaces the person it found by this very reference id, so the reference
  // changes (a Put of the new reference record, a Delete of the old) only when a concurrent
  // PATCH renamed the person in between: a race no test can time. The row shares
  // ReplacePerson's access (CHANGE_PERSON in lib/service/persons.ts).
  'UpsertPerson: DeleteItem on T#*': 'reached only by a PATCH renaming the person between the lookup and the replace',
};

const used = readGrantUses();
// A run of one project or one file has not run every function's tests: only the full run audits.
const partialRun = RECORDING_PROJECTS.some((project) => !used.has(project));

describe.skipIf(partialRun)('grants in use (the reverse drift check)', () => {
  it('every table permission, queue, cipher purpose, data key, email and tenant crossing a row grants is used by some test of a function holding it', () => {
    const usedAnywhere = new Set([...used.values()].flatMap((uses) => [...uses]));
    const granted = new Set(
      allRowFunctions().flatMap((fn) => [...grantedUses(fn), ...grantedPortUses(fn), ...declaredCrossing(fn)]),
    );
    const unused = [...granted].filter((use) => !usedAnywhere.has(use) && !(use in UNREACHED)).sort();
    const stale = Object.keys(UNREACHED).filter((use) => usedAnywhere.has(use) || !granted.has(use));
    const problems = [
      ...unused.map((use) => `${use}: granted, and no test of a function holding it sends it`),
      ...stale.map(
        (use) => `${use}: on the UNREACHED list, but ${granted.has(use) ? 'a test uses it' : 'no row grants it'}`,
      ),
    ];
    if (problems.length > 0)
      throw new Error(
        `Grants no test uses (drop them from the row in lib/service, add a test that sends them, or list them in UNREACHED with why):\n${problems.join('\n')}`,
      );
    expect(problems).toEqual([]);
  });
});
