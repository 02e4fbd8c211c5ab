import * as z from 'zod/mini';

/**
 * What the local-only `POST /local/sanctions/entries` answers (docs/sandbox.md#persons).
 * Not imported by handlers: see #shared/openapi-responses.
 */
export const sanctionsEntryResponse = z
  .strictObject({
    entry: z.strictObject({
      id: z.string().check(z.describe('The entry id, `local-<uuid>`.')),
      name: z.string(),
      date_of_birth: z.optional(z.string()),
    }),
    restricted: z.int().check(z.nonnegative(), z.describe('Persons matching the entry who are restricted now.')),
  })
  .check(z.describe('The sanctions-list entry added, and how many persons it restricts.'));

export const SCREENING_COMPONENTS = { SanctionsEntryResponse: sanctionsEntryResponse };
