import * as z from 'zod/mini';
import { SCREENING_SHARDS } from '#shared/db/persons/item';

/** Where a walk of a screening shard goes on: after this person (a tenant holds no `#`). */
const after = z.object({
  tenant: z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[^#]+$/)),
  id: z.string().check(z.minLength(1), z.maxLength(128)),
});
const shard = z.int().check(z.nonnegative(), z.lt(SCREENING_SHARDS));

/**
 * The screening queue's message, one definition for both ends: a sender builds a
 * `ScreeningMessage`, the worker parses with this schema. One shard of the verified
 * persons to screen again, from its start or `after` a person: against the listings of a
 * list change (`change`, its id, which is its run's), or against the whole lists (`daily`,
 * the day's run: every shard's message carries the same).
 */
export const screeningMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('change'),
    change_id: z.string().check(z.minLength(1), z.maxLength(128)),
    shard,
    after: z.optional(after),
  }),
  z.object({
    kind: z.literal('daily'),
    run_id: z.string().check(z.minLength(1), z.maxLength(128)),
    shard,
    after: z.optional(after),
  }),
]);
export type ScreeningMessage = z.output<typeof screeningMessage>;
