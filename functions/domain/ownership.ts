import { foldName, words } from './name-folding';
import type { MatchResult, OwnershipStatus } from './verify-account';

// Ownership matching: each supplied field is compared with what the bank holds, and the
// per-field results are aggregated (docs/api.md#what-each-check-does).

export const matchFirstName = (given: string, holder: string): MatchResult =>
  foldName(given) === foldName(holder) || foldName(given) === words(holder)[0] ? 'match' : 'not_a_match';

export const matchLastName = (given: string, holder: string): MatchResult =>
  foldName(given) === foldName(holder) || foldName(given) === words(holder).at(-1) ? 'match' : 'not_a_match';

export const matchBusinessName = (given: string, holder: string): MatchResult =>
  foldName(given) === foldName(holder) ? 'match' : 'not_a_match';

/**
 * Aggregate over the supplied fields: all not_found → not_found; all match → full;
 * none match → not_a_match; anything else → partial.
 */
export function aggregateOwnership(results: MatchResult[]): OwnershipStatus {
  if (results.length === 0) return 'not_found';
  if (results.every((r) => r === 'not_found')) return 'not_found';
  if (results.every((r) => r === 'match')) return 'full';
  if (results.every((r) => r !== 'match')) return 'not_a_match';
  return 'partial';
}
