import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { eventId } from '#domain/event-envelope';
import { identificationMessage } from '#functions/persons/identification-message';
import { personStreamRule } from '#functions/persons/stream-rules';

const ID = '7d7c1c5e-2b4a-4c6e-9f3e-1a2b3c4d5e6f';
const person = (over: Record<string, unknown> = {}) => ({
  pk: `T#t1#P#${ID}`,
  sk: 'P',
  entity: 'person',
  tenant: 't1',
  id: ID,
  customer_reference_id: 'ref-1',
  first_name: 'Jane',
  last_name: 'Doe',
  has_ssn: true,
  ssn_secret: 'local:ciphertext',
  status: 'created',
  identification_attempts: 0,
  identity_rev: 1,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  version: 1,
  ...over,
});
const change = (
  eventName: 'INSERT' | 'MODIFY',
  oldImage: Record<string, unknown> | undefined,
  newImage: Record<string, unknown>,
) => personStreamRule({ eventName, tenant: 't1', oldImage, newImage });
const identify = (rev = 1) => ({
  kind: 'enqueue',
  queue: 'identification',
  message: { id: ID, body: { tenant: 't1', id: ID, identity_rev: rev } },
});

describe('person stream rules', () => {
  afterEach(() => {
    delete process.env.IDENTIFICATION_RETRY_DELAY_SECONDS;
  });

  it('records person_created for a new person and queues its identification when it has identity data', () => {
    const [event, work] = change('INSERT', undefined, person());
    expect(event).toMatchObject({
      kind: 'record-event',
      envelope: { event_id: eventId('person_created', ID, 1), event_type: 'person_created' },
    });
    expect(work).toEqual(identify());
    const text = JSON.stringify(event);
    for (const hidden of ['ssn_secret', 'ciphertext', 'identity_rev', '"pk"', 'has_ssn'])
      expect(text).not.toContain(hidden);
  });

  it('does not queue a person with names only: it stays created', () => {
    const actions = change('INSERT', undefined, person({ has_ssn: false, ssn_secret: undefined }));
    expect(actions.map((a) => a.kind)).toEqual(['record-event']);
  });

  it.each([
    ['verified', 'person_verified'],
    ['rejected', 'person_rejected'],
    ['restricted', 'person_restricted'],
    ['closed', 'person_closed'],
  ])('turns a change to %s into %s, with the person as GET shows it', (status, type) => {
    const actions = change('MODIFY', person(), person({ status, version: 2, identification_attempts: 2 }));
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      kind: 'record-event',
      envelope: { event_type: type, event_id: eventId(type as never, ID, 2), event_data: { person: { status } } },
    });
  });

  it('asks nothing when the status stays (a contact or metadata change)', () => {
    expect(change('MODIFY', person({ status: 'verified' }), person({ status: 'verified', version: 2 }))).toEqual([]);
  });

  it('re-identifies on a new identity revision, without an event for the return to created', () => {
    const actions = change(
      'MODIFY',
      person({ status: 'verified' }),
      person({ status: 'created', identity_rev: 2, version: 2 }),
    );
    expect(actions).toEqual([identify(2)]);
  });

  it('queues the one automatic retry, delayed, when a first rejection is stored', () => {
    process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '120';
    const actions = change('MODIFY', person(), person({ status: 'rejected', identification_attempts: 1, version: 2 }));
    expect(actions[1]).toEqual({
      kind: 'enqueue',
      queue: 'identification',
      message: { id: ID, body: { tenant: 't1', id: ID, identity_rev: 1, retry: true }, delaySeconds: 120 },
    });
  });

  it('does not retry a second rejection', () => {
    const actions = change(
      'MODIFY',
      person({ status: 'rejected', identification_attempts: 1 }),
      person({ status: 'rejected', identification_attempts: 2, version: 3 }),
    );
    expect(actions).toEqual([]);
  });

  it('queues only messages the identification worker accepts, first run and retry alike', () => {
    process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '120';
    const queued = [
      ...change('INSERT', undefined, person()),
      ...change('MODIFY', person(), person({ status: 'rejected', identification_attempts: 1, version: 2 })),
    ].flatMap((action) => (action.kind === 'enqueue' ? [action.message.body] : []));
    expect(queued).toHaveLength(2);
    for (const body of queued) expect(z.parse(identificationMessage, body)).toEqual(body);
  });
});
