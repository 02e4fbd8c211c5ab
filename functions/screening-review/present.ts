import type { HitRecord } from '#domain/screening-review';
import { hitIdOf } from '#shared/db/screening-hits/index';

/** A hit as operators see it (`screeningHit` in openapi-responses.ts). */
export function presentHit(record: HitRecord) {
  const { hit } = record;
  return {
    id: hitIdOf({ tenant: record.tenant, personId: record.personId, list: hit.list, entryId: hit.entryId }),
    status: record.status,
    tenant: record.tenant,
    person_id: record.personId,
    screened: record.screened,
    list: hit.list,
    source: hit.source,
    entry_id: hit.entryId,
    listed_name: hit.listedName,
    matched_name: hit.matchedName,
    matched_kind: hit.matchedKind,
    score: hit.score,
    date_of_birth_agreement: hit.dateOfBirth,
    lists_version: record.listsVersion,
    found_at: record.foundAt,
    screened_at: record.screenedAt,
    ...(record.decision && { decision: record.decision }),
    ...(record.earlierDecisions.length > 0 && { earlier_decisions: record.earlierDecisions }),
  };
}
