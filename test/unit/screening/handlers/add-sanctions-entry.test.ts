import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as addSanctionsEntry } from '#functions/screening/handlers/add-sanctions-entry';
import { ddb, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/** POST /local/sanctions/entries: what it refuses before anything is written. (Re-screening is tested on DynamoDB Local.) */
useHandlerHarness();

const add = (body: unknown) =>
  invoke(addSanctionsEntry, httpEvent({ method: 'POST', path: '/local/sanctions/entries', body }));

describe('POST /local/sanctions/entries: the name', () => {
  it.each([
    ['punctuation only', '.'],
    ['spaces only', '   '],
    ['dashes and commas only', '-- , --'],
    ['an emoji', '💸'],
    ['combining marks only', '\u0301\u0308'],
  ])('refuses a name of %s, which folds to nothing and could match no one: 400 invalid_name', async (_what, name) => {
    const res = await add({ name });

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_name');
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });
});
