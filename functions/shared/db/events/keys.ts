/** Keys of the event log (docs/data-model.md, patterns 7 and 8). */
export const eventKeys = {
  event: (tenant: string, eventId: string) => ({ pk: `T#${tenant}#EVT#${eventId}`, sk: 'EVT' }),
  /** byTenant partition: the tenant's events. */
  byTenant: (tenant: string) => `T#${tenant}#EVT`,
  order: (createdAt: string, eventId: string) => `${createdAt}#${eventId}`,
};
