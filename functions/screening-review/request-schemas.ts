import * as z from 'zod/mini';
import { HIT_DECISIONS } from '#domain/screening-review';
import { text } from '#shared/input-schemas';

// Request schemas of the review routes (docs/api.md#hits-to-review); the list's query is in
// query-schemas.ts.

export const decisionBody = z.strictObject({
  decision: z.enum(HIT_DECISIONS, {
    error: `must be false_positive (the person is not the listed one) or confirmed`,
  }),
  note: z.optional(text(1, 500)),
});
