import * as z from 'zod/mini';

/**
 * A queue message about one verify account (the verification and statement-code-emails
 * queues), one definition for both ends: a sender builds an `AccountMessage`, the workers
 * parse with this schema.
 */
export const accountMessage = z.object({ tenant: z.string().check(z.minLength(1)), id: z.uuid() });
export type AccountMessage = z.output<typeof accountMessage>;
