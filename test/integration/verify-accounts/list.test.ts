import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountBody, freshAccountNumber, useVerifyRuntime } from './support';

/** Every account alice created, newest first as the contract orders them. */
let created: { id: string; created_at: string; type: string; account_number: string }[] = [];
const TYPES = ['status', 'control', 'status_ownership', 'control_ownership'] as const;
const SHARED_NUMBER = freshAccountNumber();

const newestFirst = <T extends { created_at: string; id: string }>(items: T[]) =>
  [...items].sort((a, b) =>
    a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at),
  );

// No pipeline: every account stays as created, so the status filters have a fixed answer.
const env = useVerifyRuntime({ consumers: [] });
// Alice's list is split in four shards (bob's is not): every page below merges 4 shards × 5 statuses.
beforeAll(() => vi.stubEnv('TENANT_LIST_SHARDS', JSON.stringify({ 'tenant-alice': 4 })));
afterAll(() => vi.unstubAllEnvs());
beforeAll(async () => {
  for (let i = 0; i < 32; i++) {
    const type = TYPES[i % TYPES.length];
    const ownership = type.endsWith('ownership') ? { person: { first_name: 'Jane', last_name: 'Doe' } } : {};
    // Four accounts (i = 0, 10, 20, 30) share one account number to exercise that filter.
    const account_number = i % 10 === 0 ? SHARED_NUMBER : freshAccountNumber();
    const response = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number, type, ...ownership }),
    );
    expect(response.status).toBe(200);
    created.push(response.body.account);
  }
  created = newestFirst(created);
  await env.clients.bob.post('/verify/accounts', accountBody({ account_number: SHARED_NUMBER }));
}, 120_000);

const ids = (body: { accounts: { id: string }[] }) => body.accounts.map((a) => a.id);

describe('GET /verify/accounts', () => {
  it("lists only the caller's accounts, newest first, 100 per page by default", async () => {
    const response = await env.clients.alice.get('/verify/accounts');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(created.map((a) => a.id));
  });

  it('pages by page number: index*size to index*size+size-1', async () => {
    const pages = await Promise.all(
      [0, 1, 2, 3, 4].map((index) => env.clients.alice.get(`/verify/accounts?size=7&index=${index}`)),
    );
    expect(ids(pages[0].body)).toEqual(created.slice(0, 7).map((a) => a.id));
    expect(ids(pages[1].body)).toEqual(created.slice(7, 14).map((a) => a.id));
    expect(ids(pages[4].body)).toEqual(created.slice(28, 32).map((a) => a.id));
    expect(pages.flatMap((p) => ids(p.body))).toEqual(created.map((a) => a.id));
    expect((await env.clients.alice.get('/verify/accounts?size=7&index=5')).body.accounts).toEqual([]);
  });

  it('links every full page to the next by cursor (RFC 8288), and the cursors walk the whole list once', async () => {
    const seen: string[] = [];
    let response = await env.clients.alice.get('/verify/accounts?size=7');
    for (;;) {
      expect(response.status).toBe(200);
      seen.push(...ids(response.body));
      const link = response.headers.link;
      if (response.body.accounts.length < 7) {
        expect(link).toBeUndefined();
        break;
      }
      const [, target] = /^<(\/verify\/accounts\?cursor=[A-Za-z0-9_-]{22}&size=7)>; rel="next"$/.exec(link ?? '') ?? [];
      expect(target).toBeDefined();
      response = await env.clients.alice.get(target as string);
    }
    expect(seen).toEqual(created.map((a) => a.id));
  });

  it('keeps a filter in its cursor, and refuses a cursor beside index or a filter, unknown, or of another tenant: 400 invalid_cursor', async () => {
    const page = await env.clients.alice.get('/verify/accounts?size=2&control_status=pending');
    const target = /^<([^>]+)>/.exec(page.headers.link ?? '')?.[1] as string;
    const next = await env.clients.alice.get(target);
    expect(next.status).toBe(200);
    const wanted = (await env.clients.alice.get('/verify/accounts?size=2&index=1&control_status=pending')).body;
    expect(ids(next.body)).toEqual(ids(wanted));
    const cursor = new URL(target, 'http://x').searchParams.get('cursor') as string;
    for (const query of [
      `cursor=${cursor}&index=1`,
      `cursor=${cursor}&control_status=pending`,
      `cursor=${'A'.repeat(22)}`,
      'cursor=not-a-cursor',
    ]) {
      const refused = await env.clients.alice.get(`/verify/accounts?${query}`);
      expect([query, refused.status, refused.body.error_code]).toEqual([query, 400, 'invalid_cursor']);
    }
    const foreign = await env.clients.bob.get(`/verify/accounts?cursor=${cursor}`);
    expect([foreign.status, foreign.body.error_code]).toEqual([400, 'invalid_cursor']);
  });

  it('answers an empty page for size 0', async () => {
    const response = await env.clients.alice.get('/verify/accounts?size=0');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ accounts: [] });
  });

  it('filters by control status, with repeated and comma-separated values', async () => {
    const withControl = created.filter((a) => a.type.startsWith('control'));
    const single = await env.clients.alice.get('/verify/accounts?control_status=pending');
    expect(ids(single.body)).toEqual(withControl.map((a) => a.id));
    const repeated = await env.clients.alice.get('/verify/accounts?control_status=valid&control_status=pending');
    expect(ids(repeated.body)).toEqual(withControl.map((a) => a.id));
    const commas = await env.clients.alice.get('/verify/accounts?control_status=valid,canceled');
    expect(commas.body.accounts).toEqual([]);
  });

  it('filters by ownership, verification and debit status together, paging the filtered set', async () => {
    const withOwnership = created.filter((a) => a.type.endsWith('ownership'));
    const response = await env.clients.alice.get(
      '/verify/accounts?ownership_status=pending&verification_status=pending&debit_status=pending&size=3&index=1',
    );
    expect(ids(response.body)).toEqual(withOwnership.slice(3, 6).map((a) => a.id));
    expect((await env.clients.alice.get('/verify/accounts?verification_status=valid')).body.accounts).toEqual([]);
  });

  it("filters by account number within the caller's accounts", async () => {
    const response = await env.clients.alice.get(`/verify/accounts?account_number=${SHARED_NUMBER}`);
    expect(ids(response.body)).toEqual(created.filter((a) => a.account_number === SHARED_NUMBER).map((a) => a.id));
    expect(response.body.accounts).toHaveLength(4);
  });

  it('filters by id, and the id filter still honours the other filters', async () => {
    const target = created.find((a) => a.type === 'status')!;
    expect(ids((await env.clients.alice.get(`/verify/accounts?id=${target.id}`)).body)).toEqual([target.id]);
    expect(
      (await env.clients.alice.get(`/verify/accounts?id=${target.id}&control_status=pending`)).body.accounts,
    ).toEqual([]);
    expect((await env.clients.bob.get(`/verify/accounts?id=${target.id}`)).body.accounts).toEqual([]);
  });

  it('filters by creation time: start_time inclusive, end_time exclusive', async () => {
    const oldestFirst = [...created].reverse();
    const from = oldestFirst[10].created_at;
    const to = oldestFirst[20].created_at;
    const response = await env.clients.alice.get(`/verify/accounts?start_time=${from}&end_time=${to}`);
    const expected = created.filter((a) => a.created_at >= from && a.created_at < to);
    expect(ids(response.body)).toEqual(expected.map((a) => a.id));
    expect(expected.length).toBeGreaterThan(0);

    const onlyStart = await env.clients.alice.get(`/verify/accounts?start_time=${from}`);
    expect(ids(onlyStart.body)).toEqual(created.filter((a) => a.created_at >= from).map((a) => a.id));
    const onlyEnd = await env.clients.alice.get(`/verify/accounts?end_time=${to}`);
    expect(ids(onlyEnd.body)).toEqual(created.filter((a) => a.created_at < to).map((a) => a.id));
  });

  it('accepts date-times with an offset', async () => {
    const newest = created[0].created_at;
    const shifted = new Date(new Date(newest).getTime()).toISOString().replace('Z', '+00:00');
    const response = await env.clients.alice.get(`/verify/accounts?start_time=${encodeURIComponent(shifted)}`);
    expect(ids(response.body)).toContain(created[0].id);
  });

  it('rejects bad query values with invalid_<param> and unknown parameters', async () => {
    const cases: [string, string][] = [
      ['size=501', 'invalid_size'],
      ['size=-1', 'invalid_size'],
      ['index=-1', 'invalid_index'],
      ['index=abc', 'invalid_index'],
      ['start_time=yesterday', 'invalid_start_time'],
      ['verification_status=approved', 'invalid_verification_status'],
      ['account_number=12', 'invalid_account_number'],
      ['id=123', 'invalid_account_id'],
      ['verification_stauts=valid', 'unknown_parameter'],
    ];
    for (const [query, code] of cases) {
      const response = await env.clients.alice.get(`/verify/accounts?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error_code, query).toBe(code);
    }
  });
});
