import * as z from 'zod/mini';

/**
 * The screening queue's message, one definition for both ends: a sender builds a
 * `ScreeningMessage`, the worker parses with this schema. A folded name on the sanctions
 * list whose verified persons are screened again.
 */
export const screeningMessage = z.object({ name_key: z.string().check(z.minLength(1)) });
export type ScreeningMessage = z.output<typeof screeningMessage>;
