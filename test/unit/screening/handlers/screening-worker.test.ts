import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Person } from '#domain/person';
import type { ListedPerson } from '#domain/screening-match';
import { handler as screeningWorker } from '#functions/screening/handlers/screening-worker';
import { PAGES_PER_MESSAGE } from '#functions/screening/rescreen';
import type { ScreeningMessage } from '#functions/screening/screening-message';
import { personItem } from '#shared/db/persons/item';
import { personKeys } from '#shared/db/persons/keys';
import { screeningKeys } from '#shared/db/screening/keys';
import { setDependencies } from '#shared/dependencies';
import type { MessageQueue, QueueId, QueueMessage } from '#shared/queue/message-queue';
import { ddb, functionUnderTest, givenStored, TABLE, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { countOf } from '#test/support/metrics';
import { observePorts } from '#test/support/port-access-recorder';
import { sqsBatch, sqsRecord } from '#test/support/records';

/**
 * The screening worker walks one shard of the verified persons and restricts each one the
 * change's listings match; a shard longer than one message's pages is handed on. (The
 * whole flow through the table is tested on DynamoDB Local.)
 */
const harness = useHandlerHarness();
const worker = functionUnderTest('ScreeningWorker', screeningWorker);

const PERSON_ID = '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b';
const LISTING: ListedPerson = {
  list: 'sanctions',
  source: 'SDN',
  entryId: 'SDN-1',
  name: 'PETROV, Ivan Sergeyevich',
  names: [{ name: 'PETROV, Ivan Sergeyevich', kind: 'primary' }],
  datesOfBirth: [],
};

function storedPerson(status: Person['status'], first_name = 'Ivan') {
  const person: Person = {
    id: PERSON_ID,
    tenant: TENANT,
    customer_reference_id: 'cust-1',
    first_name,
    last_name: 'Petrov',
    has_ssn: false,
    status,
    created_at: '2026-01-15T10:00:00.000Z',
    updated_at: '2026-01-15T10:00:00.000Z',
    identification_attempts: 1,
    version: 1,
  };
  return { ...personItem(person), identity_rev: 1 };
}

/** A change naming LISTING, and a shard whose every page holds the person (the last page ending the walk when `pages` is reached). */
function given(person: Record<string, unknown>, pages = 1) {
  ddb.on(GetCommand, { Key: screeningKeys.change('c1') }).resolves({
    Item: { ...screeningKeys.change('c1'), all: false, listings: [{ list: 'sanctions', entry_id: 'SDN-1' }] },
  });
  const listingItem = {
    ...screeningKeys.listing('sanctions', 'SDN-1'),
    list: 'sanctions',
    source: 'SDN',
    entry_id: 'SDN-1',
    name: LISTING.name,
    names: JSON.stringify(LISTING.names),
    dates_of_birth: '[]',
  };
  ddb.on(BatchGetCommand).callsFake(({ RequestItems }) => {
    const keys = RequestItems[TABLE].Keys as { pk: string }[];
    const items = keys.map((key) => (key.pk.startsWith('SCREEN#') ? listingItem : person));
    return { Responses: { [TABLE]: items } };
  });
  let served = 0;
  ddb.on(QueryCommand).callsFake(() => {
    served++;
    const sortKey = personKeys.screeningOrder(TENANT, `${PERSON_ID}-${served}`);
    return {
      Items: [{ ...personKeys.person(TENANT, PERSON_ID), tenant: TENANT, id: PERSON_ID }],
      LastEvaluatedKey: served < pages ? { gsi2pk: 'PSCREEN#3', gsi2sk: sortKey } : undefined,
    };
  });
  givenStored(person, { status: 'restricted', version: 2 });
}

/** The screening queue as a fake that keeps what is sent. */
function sentMessages() {
  const sent: QueueMessage[] = [];
  const queue = {
    send: async (id: QueueId, messages: QueueMessage[]) => {
      expect(id).toBe('screening');
      sent.push(...messages);
    },
  } as unknown as MessageQueue;
  // Observed like the runtime's queue, so the grant audit sees the worker send.
  observePorts({ queue, cipher: harness.cipher, notifier: { send: async () => undefined } as never });
  setDependencies({ queue });
  return sent;
}

/** The transactions that record a person's hits with the person's update. */
const hitTransactions = () =>
  ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
/** The updates of persons, alone or with their hits (the run's record is an update too). */
const personUpdates = () =>
  [
    ...ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input),
    ...hitTransactions().flatMap((items) => items.flatMap((item) => (item.Update ? [item.Update] : []))),
  ].filter((input) => String(input.Key?.pk).startsWith('T#'));
const runUpdates = () =>
  ddb.commandCalls(UpdateCommand).filter((call) => String(call.args[0].input.Key?.pk).startsWith('SCREENRUN#'));

const change = (): ScreeningMessage => ({ kind: 'change', change_id: 'c1', shard: 3 });
const run = (body: ScreeningMessage) => worker(sqsBatch(sqsRecord('m1', body)));

describe('screening worker: a list change, one shard', () => {
  it('restricts a verified person the change’s listing matches without the middle name: one PersonStatusChanged', async () => {
    given(storedPerson('verified'));
    const result = await run(change());
    expect(result.batchItemFailures).toEqual([]);
    expect(personUpdates()).toHaveLength(1);
    expect(personUpdates()[0]?.ExpressionAttributeValues).toMatchObject({
      ':status': 'restricted',
    });
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(1);
  });

  it('stores the restriction with the hit it found, in one transaction, on condition that neither the person nor its hits changed since read', async () => {
    given(storedPerson('verified'));
    await run(change());
    const [items] = hitTransactions() as [NonNullable<ReturnType<typeof hitTransactions>[number]>];
    expect(hitTransactions()).toHaveLength(1);
    expect(items.map((item) => String((item.Put?.Item ?? item.Update?.Key)?.sk))).toEqual(['HIT#sanctions#SDN-1', 'P']);
    expect(items[0]?.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(items[1]?.Update?.ConditionExpression).toBe('version = :v AND attribute_not_exists(hits_rev)');
    expect(items[1]?.Update?.ExpressionAttributeValues).toMatchObject({ ':v': 1, ':hits_rev': 1 });
  });

  it('leaves another given name under the listed surname verified', async () => {
    given(storedPerson('verified', 'Maria'));
    await run(change());
    expect(personUpdates()).toHaveLength(0);
  });

  it('adds what it did to its run’s record, completed when the shard’s walk ends', async () => {
    given(storedPerson('verified'));
    await run(change());
    expect(runUpdates()).toHaveLength(1);
    const update = runUpdates()[0]?.args[0].input;
    expect(update?.Key).toEqual({ pk: 'SCREENRUN#c1', sk: 'SHARD#3' });
    expect(update?.UpdateExpression).toContain('completed_at = :at');
    expect(update?.ExpressionAttributeValues).toMatchObject({
      ':kind': 'change',
      ':screened': 1,
      ':matching': 1,
      ':restricted': 1,
    });
  });

  it('walks only verified and restricted persons: the index query filters on the status', async () => {
    given(storedPerson('verified'));
    await run(change());
    const query = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(query?.FilterExpression).toBe('#status IN (:verified, :restricted)');
    expect(query?.ExpressionAttributeValues).toMatchObject({
      ':pk': 'PSCREEN#3',
      ':verified': 'verified',
      ':restricted': 'restricted',
    });
  });

  it(`hands the rest of a shard longer than ${PAGES_PER_MESSAGE} pages on, after the last person walked`, async () => {
    const sent = sentMessages();
    given(storedPerson('verified', 'Maria'), PAGES_PER_MESSAGE + 1);
    await run(change());
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(PAGES_PER_MESSAGE);
    expect(runUpdates()[0]?.args[0].input.UpdateExpression).not.toContain('completed_at');
    expect(sent).toEqual([
      {
        id: 'shard-3',
        body: { ...change(), after: { tenant: TENANT, id: `${PERSON_ID}-${PAGES_PER_MESSAGE}` } },
      },
    ]);
  });

  it('goes on from `after`: the query starts after that person', async () => {
    given(storedPerson('verified', 'Maria'));
    await run({ ...change(), after: { tenant: TENANT, id: 'p-9' } });
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.ExclusiveStartKey).toMatchObject({
      gsi2pk: 'PSCREEN#3',
      gsi2sk: `${TENANT}#p-9`,
    });
  });

  it('does nothing for a change that is gone', async () => {
    given(storedPerson('verified'));
    ddb.on(GetCommand, { Key: screeningKeys.change('c1') }).resolves({});
    await run(change());
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
