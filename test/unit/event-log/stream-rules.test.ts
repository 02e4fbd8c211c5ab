import { describe, expect, it } from 'vitest';
import { eventStreamRule } from '#functions/event-log/stream-rules';

describe('event log stream rules', () => {
  const event = {
    pk: 'T#t1#EVT#e1',
    sk: 'EVT',
    entity: 'event',
    tenant: 't1',
    id: 'e1',
    event_type: 'verify_account_updated',
  };

  it('publishes a newly stored event with the id and type its stream image carries', () => {
    expect(eventStreamRule({ eventName: 'INSERT', tenant: 't1', newImage: event })).toEqual([
      { kind: 'publish-event', tenant: 't1', eventId: 'e1', eventType: 'verify_account_updated' },
    ]);
  });

  it('publishes it once: not again when the event item changes or goes', () => {
    expect(eventStreamRule({ eventName: 'MODIFY', tenant: 't1', oldImage: event, newImage: { ...event } })).toEqual([]);
    expect(eventStreamRule({ eventName: 'REMOVE', tenant: 't1', oldImage: event, newImage: event })).toEqual([]);
  });
});
