import { afterAll, afterEach, expect } from 'vitest';
import { writeGrantUses } from '#test/support/grant-audit';
import { checkPortUses, observeDataKeys } from '#test/support/port-access-recorder';
import { checkRecorded, recordEveryDocumentClient, usedGrants } from '#test/support/table-access-recorder';

// Every integration test file: each DynamoDB command a function of the local runtime sends
// (routes, the stream router, queue workers, schedules, and the HTTP stack's rate limiter
// and idempotency records, which are real here), queue message, cipher use, data-key use and email is checked after each test against the
// grant of the row it runs as (test/integration/harness.ts), and what it used is noted for
// the reverse check (test/support/grant-audit.ts). Each table command is also held to the
// tenant its code acts for (test/support/tenant-check.ts).
recordEveryDocumentClient();
observeDataKeys();
afterEach(() => {
  checkRecorded();
  checkPortUses();
});
// Batches still in flight when a test ends are checked with the next test, or here.
afterAll(() => {
  checkRecorded();
  checkPortUses();
  writeGrantUses('integration', usedGrants, expect.getState().testPath ?? 'unknown');
});
