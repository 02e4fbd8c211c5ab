import * as z from 'zod/mini';

/**
 * The identification queue's message, one definition for both ends: a sender builds an
 * `IdentificationMessage`, the worker parses with this schema.
 * Which person, for which identity revision; `retry` for the automatic retry.
 */
export const identificationMessage = z.object({
  tenant: z.string().check(z.minLength(1)),
  id: z.uuid(),
  identity_rev: z.number().check(z.int(), z.minimum(1)),
  retry: z.optional(z.boolean()),
});
export type IdentificationMessage = z.output<typeof identificationMessage>;
