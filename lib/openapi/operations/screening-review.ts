import { screeningHitResponse, screeningHitsResponse } from '#functions/screening-review/openapi-responses';
import * as examples from '../examples/screening-review';
import { LIST } from './parameters';
import type { OperationSpec } from './types';

/** The OpenAPI words of lib/service/screening-review.ts's routes, by route id. */
export const SCREENING_REVIEW_OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  ListScreeningHits: {
    operationId: 'get-screening-hits',
    summary: 'List screening hits (operators)',
    description:
      'The service’s operators only: a client the deployment registers as an operator, holding `review:screening`; any other client answers `403 not_an_operator`, whatever scopes its token holds. Without a person: every tenant’s hits in one review status (`open` by default), newest first (by when they were found, or decided). With `tenant` and `person_id`: that person’s hits, of every status unless `status` names one.',
    tag: 'Screening review',
    parameters: {
      ...LIST,
      status: 'The review status: `open` (the default without a person), `cleared` (a false positive) or `confirmed`.',
      tenant: 'With `person_id`: the tenant of the person whose hits to list (both or neither: `400 missing_tenant`).',
      person_id: 'With `tenant`: the person whose hits to list (both or neither: `400 missing_person_id`).',
    },
    success: {
      status: 200,
      description: 'One page.',
      body: screeningHitsResponse,
      examples: { page: examples.SCREENING_HIT_RESPONSES.list },
    },
    errors: { 400: ['missing_tenant', 'missing_person_id'], 403: ['not_an_operator'] },
  },
  DecideScreeningHit: {
    operationId: 'post-screening-hit-decision',
    summary: 'Decide a screening hit (operators)',
    description:
      'The service’s operators only: a client the deployment registers as an operator, holding `review:screening`; any other client answers `403 not_an_operator`, whatever scopes its token holds. `false_positive` clears the hit: the person/listing pair does not flag again while neither the person’s names and date of birth nor the listing change, and a person held by screening alone (restricted, or rejected for `matched_watchlist`/`matched_alertlist` only) with no other open or confirmed hit becomes `verified` (its `person_verified` event follows). `confirmed` keeps the person as it is. Who decided (the token’s client id) and when is kept. A hit is decided once.',
    tag: 'Screening review',
    parameters: { id: 'The hit’s id, as listed. Unknown or malformed: `404 unknown_id_screening_hit`.' },
    requestBody: { name: 'ScreeningHitDecisionRequest' },
    success: {
      status: 200,
      description: 'The hit as decided.',
      body: screeningHitResponse,
      examples: { cleared: examples.SCREENING_HIT_RESPONSES.cleared },
    },
    errors: {
      403: ['not_an_operator'],
      404: ['unknown_id_screening_hit'],
      409: ['screening_hit_decided', 'concurrent_update'],
    },
  },
};
