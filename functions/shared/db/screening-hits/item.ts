import type { DateAgreement } from '#domain/listed-dates';
import type { ListedPersonName, ScreeningList } from '#domain/screening-match';
import type { HitDecisionRecord, HitRecord, HitStatus, ScreenedSide } from '#domain/screening-review';
import { ENTITY } from '../entities';
import { hitIdOf } from './hit-id';
import { hitKeys } from './keys';

/**
 * A hit record as stored: beside its person, and in the byDueTime partition of its review
 * status, sorted by when it was found (open) or decided.
 */
export function hitItem(record: HitRecord): Record<string, unknown> {
  const { hit } = record;
  const id = hitIdOf({ tenant: record.tenant, personId: record.personId, list: hit.list, entryId: hit.entryId });
  return {
    ...hitKeys.hit(record.tenant, record.personId, hit.list, hit.entryId),
    entity: ENTITY.screeningHit,
    version: record.version,
    gsi3pk: hitKeys.review(record.status),
    gsi3sk: hitKeys.reviewOrder(record.decision?.decided_at ?? record.foundAt, id),
    id,
    tenant: record.tenant,
    person_id: record.personId,
    list: hit.list,
    source: hit.source,
    entry_id: hit.entryId,
    listed_name: hit.listedName,
    matched_name: hit.matchedName,
    matched_kind: hit.matchedKind,
    score: hit.score,
    date_of_birth_agreement: hit.dateOfBirth,
    listing_revision: hit.listingRevision,
    status: record.status,
    screened: record.screened,
    lists_version: record.listsVersion,
    found_at: record.foundAt,
    screened_at: record.screenedAt,
    decision: record.decision,
    earlier_decisions: record.earlierDecisions.length > 0 ? record.earlierDecisions : undefined,
  };
}

export function toHitRecord(item: Record<string, unknown>): HitRecord {
  return {
    tenant: String(item.tenant),
    personId: String(item.person_id),
    hit: {
      list: item.list as ScreeningList,
      source: String(item.source),
      entryId: String(item.entry_id),
      listedName: String(item.listed_name),
      matchedName: String(item.matched_name),
      matchedKind: item.matched_kind as ListedPersonName['kind'],
      score: Number(item.score),
      dateOfBirth: item.date_of_birth_agreement as DateAgreement,
      listingRevision: String(item.listing_revision),
    },
    status: item.status as HitStatus,
    screened: item.screened as ScreenedSide,
    listsVersion: Number(item.lists_version),
    foundAt: String(item.found_at),
    screenedAt: String(item.screened_at),
    ...(item.decision !== undefined && { decision: item.decision as HitDecisionRecord }),
    earlierDecisions: (item.earlier_decisions as HitDecisionRecord[] | undefined) ?? [],
    version: Number(item.version),
  };
}

export const isHitItem = (item: Record<string, unknown> | undefined): item is Record<string, unknown> =>
  item?.entity === ENTITY.screeningHit;
