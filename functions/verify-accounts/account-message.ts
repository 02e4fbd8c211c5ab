import * as z from 'zod/mini';

/** A queue message about one verify account (the verification and statement-code-emails queues). */
export const accountMessage = z.object({ tenant: z.string().check(z.minLength(1)), id: z.uuid() });
