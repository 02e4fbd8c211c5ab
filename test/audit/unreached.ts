// Permissions no test can reach, each with why: the full run's audit
// (test/audit/grants-used.test.ts) and one row's (test/audit/audit-grants.ts) leave them out.

/**
 * A key reads `<row id>: <action> [on <leading keys>]`, or `shared: …` for an access many
 * rows hold (the HTTP stack's share, the list positions'), which counts as used when a test
 * of any of them uses it.
 */
export const UNREACHED: Readonly<Record<string, string>> = {
  // upsertPerson replaces the person it found by this very reference id, so the reference
  // changes (a Put of the new reference record, a Delete of the old) only when a concurrent
  // PATCH renamed the person in between: a race no test can time. The row shares
  // ReplacePerson's access (CHANGE_PERSON in lib/service/persons.ts).
  'UpsertPerson: DeleteItem on T#*': 'reached only by a PATCH renaming the person between the lookup and the replace',
};
