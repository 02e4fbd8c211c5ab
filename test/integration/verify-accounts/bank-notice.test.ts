import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { servedRoutes } from '#lib/service/index';
import { BankNoticeRefused, type BankOutcome } from '#shared/bank/bank-provider';
import { bankWaits } from '#shared/db/verify-accounts/index';
import { RailsBank } from '#test/support/rails-bank';
import { api } from '../harness';
import { storedItem, useRailsRuntime } from './support';

/**
 * POST /bank/notices, the provider's signed webhook (docs/api.md#real-rails), through the
 * local runtime as a stack on rails serves it: no token, no tenant; a notice the provider
 * signed applies each return it tells, once; one it did not sign answers 401
 * `invalid_signature` and applies nothing.
 */
const SECRET = 'notice-secret';
const sign = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');

/** A bank on rails that reads notices as a provider's adapter does: signature first, then the outcomes. */
class NoticeBank extends RailsBank {
  readonly read: string[] = [];

  async readNotice(body: string, headers: Readonly<Record<string, string | undefined>>): Promise<BankOutcome[]> {
    if (headers['x-notice-signature'] !== sign(body)) throw new BankNoticeRefused('bad signature');
    this.read.push(body);
    return (JSON.parse(body) as { outcomes: BankOutcome[] }).outcomes;
  }
}

let rails: NoticeBank;
const { env, created, account } = useRailsRuntime(
  () => {
    rails = new NoticeBank();
    return rails;
  },
  { routes: servedRoutes('increase') },
);

/** What the provider sends: no token, no Service-Version, its own headers. */
async function notice(body: string, headers: Record<string, string | undefined> = {}) {
  const answer = await api(env.runtime).post('/bank/notices', body, {
    headers: { 'service-version': undefined, 'x-notice-signature': sign(body), ...headers },
    contract: false,
  });
  await env.runtime.settle();
  return answer;
}
const closedNotice = (id: string) =>
  JSON.stringify({
    outcomes: [
      {
        tenant: 'tenant-alice',
        id,
        kind: 'status',
        reference: `pre-status-${id}`,
        returned: {
          verification_status: 'closed',
          status_reason: 'closed_account',
          debit_status: 'failed',
          debit_status_reason: 'closed_account',
        },
      },
    ],
  });

describe('POST /bank/notices: a notice the provider signed', () => {
  it('applies its return with no token: the account settles at once and the answer is 200 {}', async () => {
    const id = await created();
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
    const answer = await notice(closedNotice(id));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    expect(await account(id)).toMatchObject({ verification_status: 'closed', debit_status: 'failed' });
    expect(await bankWaits().of('tenant-alice', id)).toEqual([]);
  });

  it('sent again (the provider retries), changes nothing more', async () => {
    const id = await created();
    expect((await notice(closedNotice(id))).status).toBe(200);
    expect((await notice(closedNotice(id))).status).toBe(200);
    expect((await storedItem(env.runtime, 'tenant-alice', id))?.version).toBe(2);
  });

  it('is read exactly as sent when API Gateway base64-encodes it (a content type that is not text)', async () => {
    const id = await created();
    const body = closedNotice(id);
    const answer = await notice(body, { 'content-type': 'application/octet-stream' });
    expect(answer.status).toBe(200);
    expect(rails.read).toEqual([body]);
    expect(await account(id)).toMatchObject({ verification_status: 'closed' });
  });

  it('settles a control account whose status came back valid, debits blocked: ownership matched, its credit sent', async () => {
    const id = await created({
      type: 'control_ownership',
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' },
    });
    const body = JSON.stringify({
      outcomes: [
        {
          tenant: 'tenant-alice',
          id,
          kind: 'status',
          reference: `pre-status-${id}`,
          returned: { debit_status: 'blocked', debit_status_reason: 'debit_blocked' },
        },
      ],
    });
    expect((await notice(body)).status).toBe(200);
    expect(await account(id)).toMatchObject({
      verification_status: 'valid',
      debit_status: 'blocked',
      control_status: 'pending',
      ownership_status: 'not_found',
    });
    expect(rails.credits).toEqual([id]);
  });

  it('about nothing the service sent, applies nothing: 200 {}', async () => {
    const answer = await notice(JSON.stringify({ outcomes: [] }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
  });
});

describe('POST /bank/notices: a notice the provider did not sign', () => {
  it.each([
    ['a wrong signature', { 'x-notice-signature': 'f'.repeat(64) }],
    ['no signature', { 'x-notice-signature': undefined }],
  ])('with %s answers 401 invalid_signature in the contract’s error shape and applies nothing', async (_, headers) => {
    const id = await created();
    const answer = await notice(closedNotice(id), headers);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      error_code: 'invalid_signature',
      message: expect.any(String),
      request_id: answer.headers['x-request-id'],
    });
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
    expect((await bankWaits().of('tenant-alice', id)).map((wait) => wait.returned)).toEqual([undefined, undefined]);
  });

  it('over 64 KiB answers 413 request_too_large before the provider’s adapter reads it', async () => {
    const answer = await notice(JSON.stringify({ outcomes: [], padding: 'x'.repeat(70 * 1024) }));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error_code: 'request_too_large', request_id: expect.any(String) });
    expect(rails.read).toEqual([]);
  });
});

describe('which runtimes serve it', () => {
  it('only one whose bank is on rails: with the sandbox bank there is no such route', () => {
    expect(servedRoutes('sandbox').map((route) => route.path)).not.toContain('/bank/notices');
    expect(servedRoutes('increase').map((route) => route.path)).toContain('/bank/notices');
  });
});
