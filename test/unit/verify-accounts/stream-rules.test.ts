import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventId } from '#domain/event-envelope';
import { verifyAccountStatusChanged } from '#domain/verify-account';
import { accountUpdated } from '#functions/verify-accounts/event-kinds';
import { verifyAccountStreamRule } from '#functions/verify-accounts/stream-rules';
import { resetDependencies, setDependencies } from '#shared/dependencies';
import { storedAccountItem, TEST_FIELD_CIPHER } from '#test/support/records';

const ID = '0b9f3f7e-35a4-4d8e-8d7b-2f1e9c1a0c11';
const account = (over: Record<string, unknown> = {}) =>
  storedAccountItem(ID, { ownership_secret: 'local:cipher', ...over });
// The images hold the account number sealed, as the table does.
beforeAll(() => setDependencies({ fieldCipher: TEST_FIELD_CIPHER }));
afterAll(() => resetDependencies());

const verifyMessage = { kind: 'enqueue', queue: 'verification', message: { id: ID, body: { tenant: 't1', id: ID } } };

const emailMessage = {
  kind: 'enqueue',
  queue: 'statementCodeEmails',
  message: { id: ID, body: { tenant: 't1', id: ID } },
};

describe('verify account stream rules: what a change of an account asks for', () => {
  it('sends a new verify account to the verification queue', () => {
    expect(verifyAccountStreamRule({ eventName: 'INSERT', tenant: 't1', newImage: account() })).toEqual([
      verifyMessage,
    ]);
  });

  it('turns a status change into a verify_account_updated event with the account as partners see it', () => {
    const after = account({
      verification_status: 'valid',
      debit_status: 'valid',
      version: 2,
      updated_at: '2026-11-18T12:00:01.000Z',
    });
    const [action] = verifyAccountStreamRule({
      eventName: 'MODIFY',
      tenant: 't1',
      oldImage: account(),
      newImage: after,
    });
    expect(action).toMatchObject({ kind: 'record-event', tenant: 't1' });
    if (action.kind !== 'record-event') throw new Error('unreachable');
    expect(action.envelope).toMatchObject({
      event_id: eventId('verify_account_updated', after.id, 2),
      event_type: 'verify_account_updated',
      created_at: '2026-11-18T12:00:01.000Z',
      event_data: {
        account: { id: after.id, account_number: '1234567890', verification_status: 'valid', debit_status: 'valid' },
      },
    });
    const text = JSON.stringify(action.envelope);
    for (const hidden of ['ownership_secret', 'local:cipher', '"pk"', 'tenant', 'control_attempts'])
      expect(text).not.toContain(hidden);
  });

  it('ignores a change that leaves every status as it was', () => {
    const change = {
      eventName: 'MODIFY',
      tenant: 't1',
      oldImage: account(),
      newImage: account({ control_attempts: 1, version: 2 }),
    } as const;
    expect(verifyAccountStreamRule(change)).toEqual([]);
  });

  it('queues a settled account whose debit check was restarted, and records the change as an event', () => {
    const settled = account({
      verification_status: 'valid',
      debit_status: 'blocked',
      debit_status_reason: 'debit_blocked',
      version: 2,
    });
    const restarted = account({ verification_status: 'valid', debit_status: 'pending', version: 3 });
    const actions = verifyAccountStreamRule({
      eventName: 'MODIFY',
      tenant: 't1',
      oldImage: settled,
      newImage: restarted,
    });
    expect(actions[0]).toEqual(verifyMessage);
    expect(actions[1]).toMatchObject({
      kind: 'record-event',
      envelope: { event_data: { account: { debit_status: 'pending' } } },
    });
    expect(actions).toHaveLength(2);
  });

  it('does not queue an account whose first verification is still pending again', () => {
    const before = account({ verification_status: 'pending', debit_status: 'pending', control_attempts: 0 });
    const after = account({ verification_status: 'pending', debit_status: 'pending', control_attempts: 1, version: 2 });
    expect(verifyAccountStreamRule({ eventName: 'MODIFY', tenant: 't1', oldImage: before, newImage: after })).toEqual(
      [],
    );
  });

  it('queues the holder’s statement-code email when the code is sent to an account with an email, and records the change', () => {
    const before = account({ type: 'control', email: 'jane@example.com' });
    const sent = account({
      type: 'control',
      email: 'jane@example.com',
      verification_status: 'valid',
      control_status: 'pending',
      statement_code_sent_at: '2026-11-18T12:00:01.000Z',
      version: 2,
    });
    const actions = verifyAccountStreamRule({ eventName: 'MODIFY', tenant: 't1', oldImage: before, newImage: sent });
    expect(actions).toContainEqual(emailMessage);
    expect(actions.filter((action) => action.kind === 'record-event')).toHaveLength(1);
    expect(actions).toHaveLength(2);
  });

  it('queues no email for a code sent to an account without an email, nor again once it was sent', () => {
    const sentAt = '2026-11-18T12:00:01.000Z';
    const noEmail = account({ type: 'control', control_status: 'pending', statement_code_sent_at: sentAt, version: 2 });
    expect(
      verifyAccountStreamRule({ eventName: 'MODIFY', tenant: 't1', oldImage: account(), newImage: noEmail }),
    ).not.toContainEqual(expect.objectContaining({ queue: 'statementCodeEmails' }));
    const sent = account({ email: 'jane@example.com', statement_code_sent_at: sentAt, version: 2 });
    const notified = account({
      email: 'jane@example.com',
      statement_code_sent_at: sentAt,
      statement_code_notified_at: '2026-11-18T12:00:02.000Z',
      version: 3,
    });
    expect(verifyAccountStreamRule({ eventName: 'MODIFY', tenant: 't1', oldImage: sent, newImage: notified })).toEqual(
      [],
    );
  });

  it('ignores removals', () => {
    expect(
      verifyAccountStreamRule({ eventName: 'REMOVE', tenant: 't1', oldImage: account(), newImage: account() }),
    ).toEqual([]);
  });
});

describe('verify_account_updated ids', () => {
  it('are the same for the same account version, so a replayed stream record stores no second event', () => {
    const after = account({ verification_status: 'valid', version: 2 }) as never;
    expect(accountUpdated(after).event_id).toBe(accountUpdated(after).event_id);
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
