import { describe, expect, it } from 'vitest';
import { accountBody, freshAccountNumber, storedItem, useVerifyRuntime } from './support';

// No pipeline: these tests pin what create and get answer before verification runs.
const env = useVerifyRuntime({ consumers: [] });

describe('POST /verify/accounts', () => {
  it('answers pending at once and GET returns the same account', async () => {
    const created = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber() }),
    );
    expect(created.status).toBe(200);
    const { account } = created.body;
    expect(account).toMatchObject({ type: 'status', verification_status: 'pending', debit_status: 'pending' });
    expect(account.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(account.estimated_verification_date).toMatch(/T00:00:00\.000Z$/);
    for (const absent of [
      'email',
      'sender_name',
      'person',
      'business',
      'ownership_status',
      'control_status',
      'status_reason',
    ]) {
      expect(account).not.toHaveProperty(absent);
    }
    expect(JSON.stringify(created.body)).not.toContain('null');

    const fetched = await env.clients.alice.get(`/verify/accounts/${account.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ account });
  });

  it('stores the SSN only encrypted and never returns it', async () => {
    const ssn = '078051120';
    const created = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({
        account_number: freshAccountNumber(),
        type: 'status_ownership',
        person: { first_name: 'Jane', last_name: 'Doe', ssn, phone_number: '+14155550123' },
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body.account).toMatchObject({
      ownership_status: 'pending',
      person: { first_name: 'Jane', last_name: 'Doe' },
    });
    expect(JSON.stringify(created.body)).not.toContain(ssn);
    const fetched = await env.clients.alice.get(`/verify/accounts/${created.body.account.id}`);
    expect(JSON.stringify(fetched.body)).not.toContain(ssn);

    const item = await storedItem(env.runtime, 'tenant-alice', created.body.account.id);
    expect(JSON.stringify(item)).not.toContain(ssn);
    expect(item?.ownership_secret).toMatch(/^local:/);
  });

  it('rejects bad input with the contract error shape and a 4xx', async () => {
    const cases: [unknown, string][] = [
      [accountBody({ account_number: undefined }), 'missing_account_number'],
      [accountBody({ routing_number: '021000022' }), 'invalid_routing_number'],
      [accountBody({ colour: 'blue' }), 'unknown_field'],
      [accountBody({ type: 'status_ownership' }), 'missing_ownership_details'],
      ['{"account_number": ', 'invalid_json'],
    ];
    for (const [body, code] of cases) {
      const response = await env.clients.alice.post('/verify/accounts', body);
      expect(response.status, code).toBe(400);
      expect(response.body).toMatchObject({ error_code: code, request_id: response.headers['apigw-requestid'] });
      expect(typeof response.body.message).toBe('string');
    }
  });

  it('requires the Service-Version header and its one value', async () => {
    const missing = await env.clients.alice.post('/verify/accounts', accountBody(), {
      headers: { 'service-version': undefined },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error_code).toBe('version_missing');
    const wrong = await env.clients.alice.post('/verify/accounts', accountBody(), {
      headers: { 'Service-Version': 'v2020-01-01' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_code).toBe('version_invalid');
  });

  it('answers 401 without a token and 403 without the write scope', async () => {
    expect((await env.clients.anonymous.post('/verify/accounts', accountBody())).status).toBe(401);
    expect((await env.clients.readOnly.post('/verify/accounts', accountBody())).status).toBe(403);
  });

  it('allows five verifications of one bank account per tenant in 24 h, then 429', async () => {
    const body = accountBody({ account_number: freshAccountNumber() });
    for (let i = 0; i < 5; i++) expect((await env.clients.alice.post('/verify/accounts', body)).status).toBe(200);
    const sixth = await env.clients.alice.post('/verify/accounts', body);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error_code).toBe('too_many_verifications');
    // The limit is per tenant and per routing + account number.
    expect((await env.clients.bob.post('/verify/accounts', body)).status).toBe(200);
    expect((await env.clients.alice.post('/verify/accounts', { ...body, routing_number: '011000015' })).status).toBe(
      200,
    );
  });

  it('counts an account number written with hyphens and its bare digits as one bank account', async () => {
    const digits = freshAccountNumber();
    const hyphenated = `${digits.slice(0, 4)}-${digits.slice(4)}`;
    const first = await env.clients.alice.post('/verify/accounts', accountBody({ account_number: hyphenated }));
    expect(first.status).toBe(200);
    expect(first.body.account.account_number).toBe(digits);
    for (let i = 0; i < 4; i++) {
      expect((await env.clients.alice.post('/verify/accounts', accountBody({ account_number: digits }))).status).toBe(
        200,
      );
    }
    const sixth = await env.clients.alice.post('/verify/accounts', accountBody({ account_number: hyphenated }));
    expect(sixth.status).toBe(429);
    expect(sixth.body.error_code).toBe('too_many_verifications');

    const listed = await env.clients.alice.get(
      `/verify/accounts?account_number=${digits.slice(0, 2)}-${digits.slice(2)}`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.accounts).toHaveLength(5);
    expect(listed.body.accounts.map((a: { id: string }) => a.id)).toContain(first.body.account.id);
  });

  it('holds the limit when the sixth and seventh arrive together', async () => {
    const body = accountBody({ account_number: freshAccountNumber() });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => env.clients.alice.post('/verify/accounts', body)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
  });
});

describe('GET /verify/accounts/{id}', () => {
  it("answers 404 for another tenant's account, exactly as for an unknown id", async () => {
    const created = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber() }),
    );
    const foreign = await env.clients.bob.get(`/verify/accounts/${created.body.account.id}`);
    const unknown = await env.clients.bob.get('/verify/accounts/7d2b3c38-2f7a-4d8e-9a51-6f0c1f6a2b11');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe('unknown_id');
    expect(unknown.status).toBe(404);
    expect({ ...foreign.body, request_id: 'x' }).toEqual({ ...unknown.body, request_id: 'x' });
  });

  it('answers 400 invalid_id for an id that is not a UUID', async () => {
    const response = await env.clients.alice.get('/verify/accounts/not-a-uuid');
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_id');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body', async () => {
    const body = accountBody({ account_number: freshAccountNumber() });
    const headers = { 'idempotency-key': 'create-1' };
    const first = await env.clients.alice.post('/verify/accounts', body, { headers });
    const again = await env.clients.alice.post('/verify/accounts', { ...body }, { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    // Only one account was created.
    const list = await env.clients.alice.get(`/verify/accounts?account_number=${body.account_number}`);
    expect(list.body.accounts).toHaveLength(1);
  });

  it('answers 422 when the key comes back with another body', async () => {
    const headers = { 'idempotency-key': 'create-2' };
    await env.clients.alice.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }), {
      headers,
    });
    const other = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber() }),
      { headers },
    );
    expect(other.status).toBe(422);
    expect(other.body.error_code).toBe('idempotency_key_reused');
  });

  it('scopes keys to the tenant', async () => {
    const headers = { 'idempotency-key': 'create-3' };
    const body = accountBody({ account_number: freshAccountNumber() });
    const a = await env.clients.alice.post('/verify/accounts', body, { headers });
    const b = await env.clients.bob.post('/verify/accounts', body, { headers });
    expect(b.status).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.account.id).not.toBe(a.body.account.id);
  });

  it('answers 409 to a second request while the first still runs', async () => {
    const headers = { 'idempotency-key': 'create-4' };
    const body = accountBody({ account_number: freshAccountNumber() });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => env.clients.alice.post('/verify/accounts', body, { headers })),
    );
    const statuses = results.map((r) => r.status);
    const created = results.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined);
    expect(created).toHaveLength(1);
    // The others either saw the first still running (409) or replayed its response.
    for (const r of results) {
      if (r !== created[0])
        expect(r.status === 409 ? r.body.error_code : r.headers['idempotent-replayed']).toMatch(
          /idempotency_key_in_use|true/,
        );
    }
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
  });
});
