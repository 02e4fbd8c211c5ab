import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { isoListedDate } from '#domain/listed-dates';
import { fullNameKey } from '#domain/screening';
import { httpHandler } from '#shared/http/handler';
import { documented, text } from '#shared/input-schemas';
import { createLogger } from '#shared/logger';
import { writeListings } from '../load-lists';
import { rescreenName } from '../rescreen';

/**
 * An entry is found by its folded name (`fullNameKey`): a name of punctuation, spaces or
 * symbols alone folds to nothing, matches no one, and its screening message would fail the
 * worker's schema until dead-lettered. The pattern says the same to the OpenAPI document.
 */
const name = documented(
  text(1, 255).check(
    z.refine((v) => fullNameKey(v) !== '', {
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
  date_of_birth: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD'))),
});

/**
 * POST /local/sanctions/entries — local runtime only, never deployed (docs/sandbox.md#persons):
 * adds a sanctions-list entry (`First Last` or `LAST, First`) and re-screens at once, so a
 * verified person of that name is `restricted` when this answers 201. `restricted` counts the
 * persons matching the entry who are restricted now (the pipeline's own list-change
 * re-screen may have restricted them first).
 */
export const handler = httpHandler({ body }, async ({ body, tenant }) => {
  const entryId = `local-${randomUUID()}`;
  const date = body.date_of_birth ? isoListedDate(body.date_of_birth) : undefined;
  await writeListings([
    {
      list: 'sanctions',
      source: 'LOCAL',
      entryId,
      name: body.name,
      names: [{ name: body.name, kind: 'primary' }],
      datesOfBirth: date ? [date] : [],
    },
  ]);
  const { matching } = await rescreenName(fullNameKey(body.name), createLogger({ tenant, route: 'local-sanctions' }));
  return {
    statusCode: 201,
    body: { entry: { id: entryId, name: body.name, date_of_birth: body.date_of_birth }, restricted: matching },
  };
});
