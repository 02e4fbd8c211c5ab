import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { identifyPerson } from '#functions/persons/identify-person';
import { handler as streamRouterHandler } from '#functions/pipeline/handlers/stream-router';
import { documentClient } from '#shared/db/document-client';
import { SCREENING_SHARDS } from '#shared/db/persons/item';
import { personKeys } from '#shared/db/persons/keys';
import { tenants } from '#shared/db/tenants/index';
import { createLogger } from '#shared/logger';
import { api, functionUnderTest } from '../harness';
import { type RecordedWebhook, recordWebhooks } from '../webhooks/support';
import { personBody, personEvents, usePersonsRuntime } from './support';

const streamRouter = functionUnderTest('StreamRouter', streamRouterHandler);

/** Every status of the person lifecycle, reached over HTTP as a partner would with curl. */
const env = usePersonsRuntime();
/** What alice's endpoint receives: she subscribes to every event. */
let delivered: RecordedWebhook[];
beforeAll(async () => {
  delivered = await recordWebhooks(env.alice);
});
const deliveredEventIds = () => delivered.map((webhook) => webhook.eventId);

async function created(body: Record<string, unknown>) {
  const response = await env.alice.post('/persons', body);
  expect(response.status).toBe(200);
  expect(response.body.person.status).toBe('created');
  await env.runtime.settle();
  return (await env.alice.get(`/persons/${response.body.person.id}`)).body.person;
}

/** The person as stored, storage-only attributes included. */
const storedItem = async (id: string) =>
  (
    await documentClient().send(
      new GetCommand({
        TableName: env.runtime.tableName,
        Key: personKeys.person('tenant-alice', id),
        ConsistentRead: true,
      }),
    )
  ).Item;

const eventTypes = async (id: string) => (await personEvents(env.runtime, 'tenant-alice', id)).map((e) => e.event_type);

describe('person lifecycle', () => {
  it('created → verified: identification passes; person_created then person_verified, each stored and delivered once', async () => {
    const person = await created(personBody());
    expect(person.status).toBe('verified');
    expect(person).not.toHaveProperty('status_reasons');
    const stored = await personEvents(env.runtime, 'tenant-alice', person.id);
    expect(stored.map((e) => e.event_type)).toEqual(['person_created', 'person_verified']);
    expect(stored[1]?.event_data).toMatchObject({ person: { id: person.id, status: 'verified' } });
    const sent = deliveredEventIds();
    for (const event of stored) expect(sent.filter((id) => id === event.event_id)).toHaveLength(1);
  });

  it('keeps no SSN ciphertext once identification is final: verified, or rejected after the automatic retry', async () => {
    const verified = await created(personBody());
    const rejected = await created(personBody({ date_of_birth: '2015-06-01' }));
    expect(verified.status).toBe('verified');
    expect(rejected.status).toBe('rejected');
    for (const person of [verified, rejected]) {
      const item = await storedItem(person.id);
      expect(item).not.toHaveProperty('ssn_secret');
      expect(item?.has_ssn).toBe(false);
    }
    expect((await storedItem(rejected.id))?.identification_attempts).toBe(2);
  });

  it('a change of identity data after identification, without the SSN, is identified without one: rejected with incomplete_ssn until the SSN is sent again', async () => {
    const person = await created(personBody());
    expect(person.status).toBe('verified');

    const moved = await env.alice.patch(`/persons/${person.id}`, {
      addresses: [
        { type: 'home', address1: '2 Elm Street', city: 'Peoria', state: 'IL', country: 'US', zip5: '61602' },
      ],
    });
    expect(moved.body.person.status).toBe('created');
    await env.runtime.settle();
    const rejected = (await env.alice.get(`/persons/${person.id}`)).body.person;
    expect(rejected.status).toBe('rejected');
    expect(rejected.status_reasons).toEqual([
      { reason_code: 'incomplete_ssn', reason_code_message: expect.any(String) },
    ]);

    const resent = await env.alice.patch(`/persons/${person.id}`, { social_security_number: '123-45-6789' });
    expect(resent.body.person.status).toBe('created');
    await env.runtime.settle();
    expect((await env.alice.get(`/persons/${person.id}`)).body.person.status).toBe('verified');
    expect(await storedItem(person.id)).not.toHaveProperty('ssn_secret');
    expect(await eventTypes(person.id)).toEqual([
      'person_created',
      'person_verified',
      'person_rejected',
      'person_verified',
    ]);
  });

  it('a person with names only stays created', async () => {
    const person = await created({
      customer_reference_id: `names-${Date.now()}`,
      first_name: 'Nora',
      last_name: 'Names',
    });
    expect(person.status).toBe('created');
    expect(await eventTypes(person.id)).toEqual(['person_created']);
  });

  it('created → rejected with status_reasons; retried once automatically; a PATCH fixing the data, with the SSN the final rejection deleted, verifies', async () => {
    const minor = await created(personBody({ date_of_birth: '2015-06-01' }));
    expect(minor.status).toBe('rejected');
    expect(minor.status_reasons).toEqual([
      { reason_code: 'ineligible_age', reason_code_message: expect.stringMatching(/18/) },
    ]);
    // The automatic retry (delay compressed locally) runs once and rejects again: no second
    // retry. created() settled, and settle() waits for delayed messages too.
    const retried = (await env.alice.get(`/persons/${minor.id}`)).body.person;
    expect(retried.status).toBe('rejected');
    expect(await eventTypes(minor.id)).toEqual(['person_created', 'person_rejected']);

    const fixed = await env.alice.patch(`/persons/${minor.id}`, {
      date_of_birth: '1985-06-01',
      social_security_number: '123-45-6789',
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.person.status).toBe('created');
    expect(fixed.body.person).not.toHaveProperty('status_reasons');
    await env.runtime.settle();
    const verified = (await env.alice.get(`/persons/${minor.id}`)).body.person;
    expect(verified.status).toBe('verified');
    expect(await eventTypes(minor.id)).toEqual(['person_created', 'person_rejected', 'person_verified']);
  });

  it('rejects the sandbox people: Sandy Sanctioned (matched_watchlist), Alex Alertlist (matched_alertlist), SSN serial 0001 (deceased_person)', async () => {
    const sandy = await created(personBody({ first_name: 'Sandy', last_name: 'Sanctioned' }));
    const alex = await created(personBody({ first_name: 'Alex', last_name: 'Alertlist' }));
    const deceased = await created(personBody({ social_security_number: '123-45-0001' }));
    expect(sandy.status_reasons.map((r: { reason_code: string }) => r.reason_code)).toEqual(['matched_watchlist']);
    expect(alex.status_reasons.map((r: { reason_code: string }) => r.reason_code)).toEqual(['matched_alertlist']);
    expect(deceased.status_reasons.map((r: { reason_code: string }) => r.reason_code)).toEqual(['deceased_person']);
  });

  it('verified → restricted when a sanctions entry of their name is added; person_restricted once', async () => {
    const person = await created(personBody({ first_name: 'Rita', last_name: 'Restrictable' }));
    expect(person.status).toBe('verified');
    const added = await env.alice.post('/local/sanctions/entries', { name: 'RESTRICTABLE, Rita' });
    expect(added.status).toBe(201);
    expect(added.body.restricted).toBeGreaterThanOrEqual(1);
    await env.runtime.settle();
    const restricted = (await env.alice.get(`/persons/${person.id}`)).body.person;
    expect(restricted.status).toBe('restricted');
    expect(restricted.status_reasons).toEqual([
      { reason_code: 'matched_watchlist', reason_code_message: expect.any(String) },
    ]);
    expect(await eventTypes(person.id)).toEqual(['person_created', 'person_verified', 'person_restricted']);
    // The count is of persons restricted now, whoever restricted them (the pipeline's list-change
    // re-screen runs concurrently): a second entry of the name counts Rita again, restricts nobody anew.
    const again = await env.alice.post('/local/sanctions/entries', { name: 'Rita Restrictable' });
    expect(again.body.restricted).toBe(added.body.restricted);
    await env.runtime.settle();
    expect(await eventTypes(person.id)).toEqual(['person_created', 'person_verified', 'person_restricted']);
    const refused = await env.alice.patch(`/persons/${person.id}`, { last_name: 'Other' });
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('person_restricted');
  });

  it('a sanctions entry with a date of birth restricts only the person born that day', async () => {
    const same = await created(personBody({ first_name: 'Dana', last_name: 'Dated', date_of_birth: '1970-01-02' }));
    const other = await created(personBody({ first_name: 'Dana', last_name: 'Dated', date_of_birth: '1971-01-02' }));
    await env.alice.post('/local/sanctions/entries', { name: 'Dana Dated', date_of_birth: '1970-01-02' });
    await env.runtime.settle();
    expect((await env.alice.get(`/persons/${same.id}`)).body.person.status).toBe('restricted');
    expect((await env.alice.get(`/persons/${other.id}`)).body.person.status).toBe('verified');
  });

  it('→ closed by DELETE, with closed_at; person_closed once; then PATCH answers 409 person_closed', async () => {
    const person = await created(personBody());
    const closed = await env.alice.delete(`/persons/${person.id}`);
    expect(closed.status).toBe(200);
    expect(closed.body.person).toMatchObject({ status: 'closed', closed_at: expect.any(String) });
    const again = await env.alice.delete(`/persons/${person.id}`);
    expect(again.body.person).toEqual(closed.body.person);
    const patch = await env.alice.patch(`/persons/${person.id}`, { first_name: 'Janet' });
    expect(patch.status).toBe(409);
    expect(patch.body.error_code).toBe('person_closed');
    await env.runtime.settle();
    expect(await eventTypes(person.id)).toEqual(['person_created', 'person_verified', 'person_closed']);
  });

  it('BYO-KYC tenants skip the identity vendor: SSN serial 0001 is verified there, screening still applies', async () => {
    const byo = api(env.runtime, await env.runtime.mintToken('tenant-byo'));
    await tenants().putSettings('tenant-byo', { kyc_mode: 'byo' });
    const posted = await byo.post('/persons', personBody({ social_security_number: '123-45-0001' }));
    const sandy = await byo.post('/persons', personBody({ first_name: 'Sandy', last_name: 'Sanctioned' }));
    await env.runtime.settle();
    expect((await byo.get(`/persons/${posted.body.person.id}`)).body.person.status).toBe('verified');
    expect((await byo.get(`/persons/${sandy.body.person.id}`)).body.person.status_reasons).toEqual([
      { reason_code: 'matched_watchlist', reason_code_message: expect.any(String) },
    ]);
  });

  it('an identification request for an older identity revision, or for a closed person, changes nothing', async () => {
    const person = await created(personBody());
    const stale = { tenant: 'tenant-alice', id: person.id, identity_rev: 0 };
    const item = async () =>
      (
        await documentClient().send(
          new GetCommand({ TableName: env.runtime.tableName, Key: personKeys.person('tenant-alice', person.id) }),
        )
      ).Item;
    const before = await item();
    await identifyPerson(stale, createLogger());
    await env.alice.delete(`/persons/${person.id}`);
    const closed = await item();
    await identifyPerson({ ...stale, identity_rev: Number(closed?.identity_rev) }, createLogger());
    await identifyPerson({ ...stale, identity_rev: Number(closed?.identity_rev), retry: true }, createLogger());
    expect((await item())?.version).toBe(closed?.version);
    expect(closed?.version).toBe(Number(before?.version) + 1);
  });

  it('a replayed stream batch of a status change stores and delivers no second event', async () => {
    const person = await created(personBody());
    const stored = await documentClient().send(
      new GetCommand({ TableName: env.runtime.tableName, Key: personKeys.person('tenant-alice', person.id) }),
    );
    const after = stored.Item as Record<string, unknown>;
    const before = { ...after, status: 'created', version: Number(after.version) - 1 };
    const replay: DynamoDBStreamEvent = {
      Records: [
        {
          eventName: 'MODIFY',
          dynamodb: {
            SequenceNumber: '1',
            OldImage: marshall(before, { removeUndefinedValues: true }) as never,
            NewImage: marshall(after, { removeUndefinedValues: true }) as never,
          },
        },
      ],
    };
    const eventsBefore = await personEvents(env.runtime, 'tenant-alice', person.id);
    const deliveredBefore = deliveredEventIds().length;
    expect((await streamRouter(replay)).batchItemFailures).toEqual([]);
    expect((await streamRouter(replay)).batchItemFailures).toEqual([]);
    await env.runtime.settle();
    expect(await personEvents(env.runtime, 'tenant-alice', person.id)).toEqual(eventsBefore);
    expect(deliveredEventIds()).toHaveLength(deliveredBefore);
  });

  it('the daily re-screen restricts a verified person on the sanctions list', async () => {
    const person = await created(personBody({ first_name: 'Dale', last_name: 'Daily' }));
    await env.alice.post('/local/sanctions/entries', { name: 'Dale Daily' });
    await env.runtime.settle();
    // As if the person had been verified after the list changed: the daily run must catch it.
    const key = personKeys.person('tenant-alice', person.id);
    await documentClient().send(
      new UpdateCommand({
        TableName: env.runtime.tableName,
        Key: key,
        UpdateExpression: 'SET #status = :verified, version = version + :one REMOVE status_reasons',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':verified': 'verified', ':one': 1 },
      }),
    );
    await env.runtime.settle();
    expect((await env.alice.get(`/persons/${person.id}`)).body.person.status).toBe('verified');

    const run = (await env.runtime.runSchedule('DailyRescreen')) as { shards: number };
    expect(run.shards).toBe(SCREENING_SHARDS);
    await env.runtime.settle();
    expect((await env.alice.get(`/persons/${person.id}`)).body.person.status).toBe('restricted');
  });
});
