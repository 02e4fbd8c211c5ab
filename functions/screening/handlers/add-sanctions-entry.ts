import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { isoListedDate } from '#domain/listed-dates';
import { words } from '#domain/name-folding';
import type { ListedPerson } from '#domain/screening-match';
import { httpHandler } from '#shared/http/handler';
import { documented, text } from '#shared/input-schemas';
import { createLogger } from '#shared/logger';
import { writeListChanges } from '../load-lists';
import { changedSanctions, rescreenEverywhere } from '../rescreen';

/**
 * A name of punctuation, spaces or symbols alone folds to no word and matches no one: it
 * is refused at the door. The pattern says the same to the OpenAPI document.
 */
const name = documented(
  text(1, 255).check(
    z.refine((v) => words(v).length > 0, {
      message: 'must hold at least one letter or digit (punctuation, spaces and symbols alone match no one)',
    }),
  ),
  {
    pattern: '[\\p{L}\\p{N}]',
    description: '`First Last` or `LAST, First`, with at least one letter or digit: punctuation alone matches no one.',
  },
);

const body = z.strictObject({
  name,
  aliases: z.optional(z.array(name).check(z.maxLength(20))),
  date_of_birth: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD'))),
});

/**
 * POST /local/sanctions/entries — local runtime only, never deployed (docs/sandbox.md#persons):
 * adds a sanctions-list entry (`First Last` or `LAST, First`, with its aliases) and
 * re-screens every verified person against it at once, as the pipeline does for any list
 * change, so a verified person it matches is `restricted` when this answers 201. `restricted` counts the
 * persons matching the entry who are restricted now (the pipeline's own list-change
 * re-screen may have restricted them first).
 */
export const handler = httpHandler({ body }, async ({ body, tenant }) => {
  const entryId = `local-${randomUUID()}`;
  const date = body.date_of_birth ? isoListedDate(body.date_of_birth) : undefined;
  const listing: ListedPerson = {
    list: 'sanctions',
    source: 'LOCAL',
    entryId,
    name: body.name,
    names: [
      { name: body.name, kind: 'primary' },
      ...(body.aliases ?? []).map((alias) => ({ name: alias, kind: 'aka' as const })),
    ],
    datesOfBirth: date ? [date] : [],
  };
  await writeListChanges({ put: [listing] });
  const logger = createLogger({ tenant, route: 'local-sanctions' });
  const lists = await changedSanctions([listing]);
  const { matching } = lists ? await rescreenEverywhere(lists, logger) : { matching: 0 };
  return {
    statusCode: 201,
    body: { entry: { id: entryId, name: body.name, date_of_birth: body.date_of_birth }, restricted: matching },
  };
});
