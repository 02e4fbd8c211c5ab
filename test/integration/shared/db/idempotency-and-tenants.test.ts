import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#shared/db/document-client';
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_WINDOW_MS, IdempotencyRepository } from '#shared/db/idempotency/index';
import { TenantRepository } from '#shared/db/tenants/index';
import { createTestTable } from '#test/integration/harness';

/** The conditional writes behind Idempotency-Key and tenant aliases, on the real engine. */
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});

const T0 = new Date('2026-03-02T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const response = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };

describe('IdempotencyRepository', () => {
  const repository = () => new IdempotencyRepository(documentClient(), tableName);
  let n = 0;
  const scope = (route = 'POST /verify/accounts') => ({ tenant: 't1', route, key: `key-${++n}` });

  it('claims a new key, then says it is in progress, then replays it once completed', async () => {
    const s = scope();
    expect(await repository().claim(s, 'fp', T0)).toEqual({ state: 'claimed' });
    expect(await repository().claim(s, 'fp', later(1000))).toEqual({
      state: 'in_progress',
      fingerprint: 'fp',
      lockedUntil: later(IDEMPOTENCY_LOCK_MS),
    });
    await repository().complete(s, T0, response);
    expect(await repository().claim(s, 'other', later(2000))).toEqual({
      state: 'completed',
      fingerprint: 'fp',
      response,
    });
  });

  it('stores the key only as a digest: a partner who used an account number as the key does not store it', async () => {
    const key = '9876543210123';
    const s = { tenant: 't1', route: 'POST /verify/accounts', key };
    expect(await repository().claim(s, 'fp', T0)).toEqual({ state: 'claimed' });
    const { Items = [] } = await documentClient().send(new ScanCommand({ TableName: tableName }));
    expect(Items.filter((item) => item.entity === 'idempotency').length).toBeGreaterThan(0);
    expect(JSON.stringify(Items)).not.toContain(key);
    expect(await repository().claim(s, 'fp', later(1000))).toEqual({
      state: 'in_progress',
      fingerprint: 'fp',
      lockedUntil: later(IDEMPOTENCY_LOCK_MS),
    });
  });

  it('lets a new request take over a claim whose request died (its lock lapsed)', async () => {
    const s = scope();
    await repository().claim(s, 'fp', T0);
    expect((await repository().claim(s, 'fp', later(IDEMPOTENCY_LOCK_MS - 1))).state).toBe('in_progress');
    expect(await repository().claim(s, 'fp', later(IDEMPOTENCY_LOCK_MS))).toEqual({ state: 'claimed' });
  });

  it('forgets a completed key after 24 hours, even before TTL deletes it', async () => {
    const s = scope();
    await repository().claim(s, 'fp', T0);
    await repository().complete(s, T0, response);
    expect((await repository().claim(s, 'other', later(IDEMPOTENCY_WINDOW_MS - 1))).state).toBe('completed');
    expect(await repository().claim(s, 'other', later(IDEMPOTENCY_WINDOW_MS))).toEqual({ state: 'claimed' });
  });

  it('keeps the same key on another route or tenant apart', async () => {
    const s = scope();
    await repository().claim(s, 'fp', T0);
    expect(await repository().claim({ ...s, route: 'POST /verify/accounts/{id}/control' }, 'fp', T0)).toEqual({
      state: 'claimed',
    });
    expect(await repository().claim({ ...s, tenant: 't2' }, 'fp', T0)).toEqual({ state: 'claimed' });
  });

  it('releases an in-progress claim but never a completed one', async () => {
    const released = scope();
    await repository().claim(released, 'fp', T0);
    await repository().release(released, T0);
    expect(await repository().claim(released, 'fp', later(1))).toEqual({ state: 'claimed' });

    const kept = scope();
    await repository().claim(kept, 'fp', T0);
    await repository().complete(kept, T0, response);
    await repository().release(kept, T0);
    expect((await repository().claim(kept, 'fp', later(1))).state).toBe('completed');
  });

  it('leaves a key alone once its claim was taken over: the late request neither completes nor frees the new holder’s', async () => {
    const s = scope();
    await repository().claim(s, 'fp', T0);
    expect(await repository().claim(s, 'fp', later(IDEMPOTENCY_LOCK_MS))).toEqual({ state: 'claimed' });
    const heldByTheNewRequest = {
      state: 'in_progress',
      fingerprint: 'fp',
      lockedUntil: later(2 * IDEMPOTENCY_LOCK_MS),
    };

    await repository().complete(s, T0, { ...response, body: '{"late":true}' });
    expect(await repository().claim(s, 'fp', later(IDEMPOTENCY_LOCK_MS + 1))).toEqual(heldByTheNewRequest);
    await repository().release(s, T0);
    expect(await repository().claim(s, 'fp', later(IDEMPOTENCY_LOCK_MS + 1))).toEqual(heldByTheNewRequest);
  });

  it('writes no record for a key whose claim is gone: a late completion cannot leave one without fingerprint or expiry', async () => {
    const s = scope();
    await repository().claim(s, 'fp', T0);
    await repository().release(s, T0);

    await repository().complete(s, T0, response);
    const { Items = [] } = await documentClient().send(new ScanCommand({ TableName: tableName }));
    expect(Items.filter((item) => item.response === response.body && item.fingerprint === undefined)).toEqual([]);
    expect(await repository().claim(s, 'fp', later(1))).toEqual({ state: 'claimed' });
  });
});

describe('TenantRepository', () => {
  it('maps a client id to its tenant through an alias, and a client without one to no tenant', async () => {
    const repository = new TenantRepository(documentClient(), tableName);
    await repository.putAlias('client-rotated-2', 'acme');
    expect((await repository.aliasOf('client-rotated-2'))?.tenant).toBe('acme');
    expect(await repository.aliasOf('client-plain')).toBeUndefined();
  });

  it('marks an operator’s alias, and no partner’s', async () => {
    const repository = new TenantRepository(documentClient(), tableName);
    await repository.putAlias('client-compliance', 'compliance', { operator: true });
    await repository.putAlias('client-acme', 'acme');
    expect(await repository.aliasOf('client-compliance')).toEqual({ tenant: 'compliance', operator: true });
    expect(await repository.aliasOf('client-acme')).toEqual({ tenant: 'acme', operator: false });
  });
});
