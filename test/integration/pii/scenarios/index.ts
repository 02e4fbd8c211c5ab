import type { Scenario } from './context';
import { EVENT_SCENARIOS } from './event-log';
import { PERSON_SCENARIOS } from './persons';
import { REVIEW_SCENARIOS } from './screening-review';
import { VERIFY_SCENARIOS } from './verify-accounts';
import { WEBHOOK_SCENARIOS } from './webhooks';

export type { Context } from './context';

/**
 * One scenario per route of the route table, keyed by its route key, run in this order
 * (later ones use what earlier ones made): each sends the secrets where a partner would
 * (success), where they do not belong (invalid and unknown fields, malformed JSON, query
 * parameters, path ids), and on the route's error paths (unknown or another tenant's
 * ids, conflicts, limits).
 */
export const SCENARIOS: Record<string, Scenario> = {
  ...WEBHOOK_SCENARIOS,
  ...VERIFY_SCENARIOS,
  ...PERSON_SCENARIOS,
  ...REVIEW_SCENARIOS,
  ...EVENT_SCENARIOS,
};
