import * as z from 'zod/mini';
import { DATE_AGREEMENTS } from '#domain/listed-dates';
import { HIT_DECISIONS, HIT_STATUSES } from '#domain/screening-review';
import { id, timestamp } from '#shared/openapi-responses';

// What the review routes answer (docs/api.md#hits-to-review). Not imported by handlers:
// see #shared/openapi-responses.

const decision = z.strictObject({
  decision: z.enum(HIT_DECISIONS),
  decided_by: z.string().check(z.describe('The client id of the operator’s token.')),
  decided_at: timestamp(),
  note: z.optional(z.string()),
});

export const screeningHit = z
  .strictObject({
    id: z.string().check(z.describe('Opaque; names the hit across tenants.')),
    status: z.enum(HIT_STATUSES),
    tenant: z.string(),
    person_id: id(),
    screened: z
      .strictObject({
        first_name: z.string(),
        middle_name: z.optional(z.string()),
        last_name: z.string(),
        date_of_birth: z.optional(z.string()),
      })
      .check(z.describe('The person as it was screened.')),
    list: z.enum(['sanctions', 'alerts']),
    source: z.string().check(z.describe('`SDN`, `CONS`, `ALERTS`, `LOCAL`, `SANDBOX`.')),
    entry_id: z.string(),
    listed_name: z.string(),
    matched_name: z.string().check(z.describe('The listed name or alias that matched best.')),
    matched_kind: z.enum(['primary', 'aka', 'fka', 'nka']),
    score: z.int().check(z.minimum(0), z.maximum(100)),
    date_of_birth_agreement: z.enum(DATE_AGREEMENTS),
    lists_version: z.int().check(z.describe('The lists’ version of the latest screening that found it.')),
    found_at: timestamp(),
    screened_at: timestamp().check(z.describe('The latest screening that found it.')),
    decision: z.optional(decision),
    earlier_decisions: z.optional(
      z.array(decision).check(z.describe('Decisions a change of the person or the listing reopened, oldest first.')),
    ),
  })
  .check(z.describe('A screening hit to review.'));

export const screeningHitResponse = z
  .strictObject({ screening_hit: screeningHit })
  .check(z.describe('One screening hit.'));
export const screeningHitsResponse = z
  .strictObject({ screening_hits: z.array(screeningHit) })
  .check(z.describe('One page of screening hits.'));

export const SCREENING_REVIEW_COMPONENTS = {
  ScreeningHit: screeningHit,
  ScreeningHitResponse: screeningHitResponse,
  ScreeningHitsResponse: screeningHitsResponse,
};
