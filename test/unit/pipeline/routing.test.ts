import { describe, expect, it } from 'vitest';
import { eventId, verifyAccountStatusChanged } from '#domain/events';
import { accountUpdated, routeStreamRecord } from '../../../functions/pipeline/routing';
import { storedAccountItem } from '../../support/records';

const ID = '0b9f3f7e-35a4-4d8e-8d7b-2f1e9c1a0c11';
const account = (over: Record<string, unknown> = {}) =>
  storedAccountItem(ID, { ownership_secret: 'local:cipher', ...over });

describe('stream router: what each record asks for', () => {
  it('sends a new verify account to the verification queue', () => {
    expect(routeStreamRecord('INSERT', undefined, account())).toEqual([
      { kind: 'verify', tenant: 't1', id: '0b9f3f7e-35a4-4d8e-8d7b-2f1e9c1a0c11' },
    ]);
  });

  it('turns a status change into a verify_account_updated event with the account as partners see it', () => {
    const after = account({
      verification_status: 'valid',
      debit_status: 'valid',
      version: 2,
      updated_at: '2026-11-18T12:00:01.000Z',
    });
    const [action] = routeStreamRecord('MODIFY', account(), after);
    expect(action).toMatchObject({ kind: 'record-event', tenant: 't1' });
    if (action.kind !== 'record-event') throw new Error('unreachable');
    expect(action.envelope).toMatchObject({
      event_id: eventId('verify_account_updated', after.id, 2),
      event_type: 'verify_account_updated',
      created_at: '2026-11-18T12:00:01.000Z',
      event_data: { account: { id: after.id, verification_status: 'valid', debit_status: 'valid' } },
    });
    const text = JSON.stringify(action.envelope);
    for (const hidden of ['ownership_secret', 'local:cipher', '"pk"', 'tenant', 'control_attempts'])
      expect(text).not.toContain(hidden);
  });

  it('ignores a change that leaves every status as it was', () => {
    expect(routeStreamRecord('MODIFY', account(), account({ control_attempts: 1, version: 2 }))).toEqual([]);
  });

  it('publishes a newly stored event to the webhook queue, once: only on its INSERT', () => {
    const event = { pk: 'T#t1#EVT#e1', sk: 'EVT', entity: 'event', tenant: 't1', id: 'e1' };
    expect(routeStreamRecord('INSERT', undefined, event)).toEqual([
      { kind: 'publish-event', tenant: 't1', eventId: 'e1' },
    ]);
    expect(routeStreamRecord('MODIFY', event, { ...event, queued_at: 'x' })).toEqual([]);
  });

  it('ignores removals and other entities', () => {
    expect(routeStreamRecord('REMOVE', account(), undefined)).toEqual([]);
    expect(routeStreamRecord('INSERT', undefined, { entity: 'idempotency', tenant: 't1' })).toEqual([]);
    expect(routeStreamRecord('INSERT', undefined, { entity: 'verification_slot', tenant: 't1' })).toEqual([]);
  });
});

describe('event ids', () => {
  it('are the same for the same record version, so a replayed stream record stores no second event', () => {
    expect(eventId('verify_account_updated', 'a1', 3)).toBe(eventId('verify_account_updated', 'a1', 3));
    const after = account({ verification_status: 'valid', version: 2 }) as never;
    expect(accountUpdated(after).event_id).toBe(accountUpdated(after).event_id);
  });

  it('differ by record, version and event type', () => {
    const ids = new Set([
      eventId('verify_account_updated', 'a1', 1),
      eventId('verify_account_updated', 'a1', 2),
      eventId('verify_account_updated', 'a2', 1),
      eventId('person_verified', 'a1', 1),
    ]);
    expect(ids.size).toBe(4);
  });

  it('are RFC 4122 version 5 UUIDs', () => {
    expect(eventId('person_created', 'p1', 1)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('status change detection', () => {
  it.each([
    'verification_status',
    'status_reason',
    'ownership_status',
    'control_status',
    'debit_status',
    'debit_status_reason',
  ])('notices a change of %s', (field) => {
    expect(verifyAccountStatusChanged({}, { [field]: 'x' })).toBe(true);
  });

  it('does not count other fields', () => {
    expect(verifyAccountStatusChanged({ updated_at: 'a', version: 1 }, { updated_at: 'b', version: 2 })).toBe(false);
  });
});
