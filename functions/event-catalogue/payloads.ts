import * as z from 'zod/mini';
import { person } from '#functions/persons/openapi-responses';
import { verifyAccount } from '#functions/verify-accounts/openapi-responses';

// The shapes of the records events carry (`event_data`), joined from the emitting areas'
// response schemas: the catalogue's half that only the OpenAPI document and tests read
// (kinds.ts holds the kinds, and the layering). Not imported by handlers: see
// #shared/openapi-responses.

/**
 * A test event (`POST /webhooks/invoke` with `data`) carries the partner's `data` as it was
 * sent, which the service checks only for sensitive keys and depth: it need not be a
 * record of the service. A kind the service never emits carries that, or a generated sample.
 */
const sentAsIs = z
  .record(z.string(), z.unknown())
  .check(z.describe('A test event’s `data`, as it was sent to `POST /webhooks/invoke`, or a generated sample.'));

export const eventData = z
  .union([
    z.strictObject({ account: verifyAccount }),
    z.strictObject({ person }),
    z.strictObject({ account: sentAsIs }),
    z.strictObject({ person: sentAsIs }),
    z.strictObject({ business: sentAsIs }),
    z.strictObject({ external_account: sentAsIs }),
    z.strictObject({ transfer: sentAsIs }),
    z.strictObject({ subledger: sentAsIs }),
    z.strictObject({ book_transfer: sentAsIs }),
  ])
  .check(
    z.describe(
      'The record as its GET route answers it: `{ account }` or `{ person }`. A test event carries its `data` or a sample, under the record its kind names (`business`, `external_account`, `transfer`, `subledger`, `book_transfer` for kinds only a test event has).',
    ),
  );
