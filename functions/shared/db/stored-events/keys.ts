import { KEY_PREFIX } from '../key-kinds';

/** Keys of the event log (docs/data-model.md, patterns 7 and 8). */
export const eventKeys = {
  event: (tenant: string, eventId: string) => ({ pk: `${KEY_PREFIX.tenantData}${tenant}#EVT#${eventId}`, sk: 'EVT' }),
  /**
   * byTenant partition: the tenant's events in one shard (a list merges every shard). Test
   * events (`POST /webhooks/invoke`) have partitions of their own, so a list of real events
   * never reads them: no filter, and no index projection to change.
   */
  list: (tenant: string, shard: number, test = false) =>
    `${KEY_PREFIX.tenantData}${tenant}#EVT#${test ? 'TEST#' : ''}${shard}`,
  order: (createdAt: string, eventId: string) => `${createdAt}#${eventId}`,
  /**
   * The tenant's redelivery pace (docs/data-model.md, pattern 23): its own kind prefix, so a
   * grant may name it apart from the tenant's records.
   */
  redeliveryPace: (tenant: string) => ({ pk: `${KEY_PREFIX.redeliveryPace}${tenant}`, sk: 'PACE' }),
  /**
   * Who is sending one attempt of one delivery right now (pattern 18): beside its event,
   * one key per configuration, attempt and redelivery, so two messages for the same attempt
   * meet on one item.
   */
  claim: (tenant: string, eventId: string, attempt: AttemptOf) => ({
    pk: `${KEY_PREFIX.tenantData}${tenant}#EVT#${eventId}`,
    sk: `CLAIM#${attempt.configuration_id}#${attempt.attempt}#${attempt.redelivery ?? '-'}`,
  }),
  /**
   * A delivery attempt, in one of its event's attempt slots (pattern 18): read with the event
   * in one Query; the slots bound how many an event keeps.
   */
  attempt: (tenant: string, eventId: string, slot: number) => ({
    pk: `${KEY_PREFIX.tenantData}${tenant}#EVT#${eventId}`,
    sk: `ATTEMPT#${String(slot).padStart(3, '0')}`,
  }),
};

/** What names one attempt of one delivery: the configuration, the attempt's number, the redelivery (none for the first delivery). */
export interface AttemptOf {
  readonly configuration_id: string;
  readonly attempt: number;
  readonly redelivery?: string;
}
