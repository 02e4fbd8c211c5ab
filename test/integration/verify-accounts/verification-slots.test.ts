import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { newVerifyAccount, type VerifyAccount } from '#domain/verify-account';
import { documentClient } from '#shared/db/document-client';
import { VerifyAccountRepository } from '#shared/db/verify-accounts/index';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { ConflictError, InternalError, RateLimitError } from '#shared/errors';
import { createTestTable } from '../harness';
import { freshAccountNumber } from './support';

/**
 * The 5-per-24h verification slots on the real engine (docs/data-model.md, pattern 4): a
 * slot is claimed with a conditional put, then the account is written; a failed account
 * write gives its slot back.
 */
let repository: VerifyAccountRepository;
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
  repository = new VerifyAccountRepository(documentClient(), tableName);
});

const TENANT = 'tenant-slots';
const NOW = new Date('2026-03-02T10:00:00.000Z');

const account = (accountNumber: string, id: string = randomUUID()): VerifyAccount =>
  newVerifyAccount(
    {
      id,
      tenant: TENANT,
      type: 'status',
      account_number: accountNumber,
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
    },
    NOW,
  );

/** The slot items of one bank account, as stored. */
async function slotsOf(accountNumber: string) {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': accountKeys.slots(TENANT, '021000021', accountNumber) },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'created',
    (error) => (error instanceof RateLimitError ? error.code : error),
  );

describe('verification slots on DynamoDB Local', () => {
  it('gives five concurrent creates of one bank account five slots and the sixth too_many_verifications', async () => {
    const number = freshAccountNumber();

    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => outcome(repository.create(account(number), undefined, NOW))),
    );

    expect(outcomes.filter((o) => o === 'created')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'too_many_verifications')).toHaveLength(1);
    const slots = await slotsOf(number);
    expect(slots.map((s) => s.sk).sort()).toEqual([0, 1, 2, 3, 4].map((n) => `SLOT#${n}`));
  });

  it('releases the slot of a failed account write (a colliding id), so the next request gets it', async () => {
    const number = freshAccountNumber();
    const first = account(number);
    await repository.create(first, undefined, NOW);
    for (let n = 0; n < 3; n++) await repository.create(account(number), undefined, NOW);

    const collision = await repository.create(account(number, first.id), undefined, NOW).catch((e) => e);

    expect(collision).toBeInstanceOf(InternalError);
    expect(await slotsOf(number)).toHaveLength(4);
    const next = account(number);
    await expect(repository.create(next, undefined, NOW)).resolves.toEqual(next);
    await expect(outcome(repository.create(account(number), undefined, NOW))).resolves.toBe('too_many_verifications');
  });

  it('releases the slot when the account changed during a debit re-check: 409 concurrent_update, the slot free again', async () => {
    const number = freshAccountNumber();
    const stale = account(number);
    await repository.create(stale, undefined, NOW);
    await repository.recordDebitCheck(stale, { debit_status: 'blocked', debit_status_reason: 'debit_blocked' }, NOW);

    const conflict = await repository.restartDebitCheck(stale, NOW).catch((e) => e);

    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.code).toBe('concurrent_update');
    expect((await repository.get(TENANT, stale.id))?.debit_status).toBe('blocked');
    expect((await slotsOf(number)).map((s) => s.account_id)).toEqual([stale.id]);
    for (let n = 0; n < 4; n++) await repository.create(account(number), undefined, NOW);
    await expect(outcome(repository.create(account(number), undefined, NOW))).resolves.toBe('too_many_verifications');
  });

  it('claims a slot again once its 24 h have passed', async () => {
    const number = freshAccountNumber();
    for (let n = 0; n < 5; n++) await repository.create(account(number), undefined, NOW);
    const dayLater = new Date(NOW.getTime() + 24 * 60 * 60 * 1000);

    const later = account(number);
    await repository.create(later, undefined, dayLater);

    const slots = await slotsOf(number);
    expect(slots).toHaveLength(5);
    expect(slots.filter((s) => s.account_id === later.id)).toEqual([
      expect.objectContaining({ sk: 'SLOT#0', expires_at_ms: dayLater.getTime() + 24 * 60 * 60 * 1000 }),
    ]);
  });
});
