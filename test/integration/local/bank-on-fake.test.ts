import { describe, expect, it } from 'vitest';
import { eventually } from '#test/support/eventually';
import { captureLogs } from '#test/support/logs';
import { captureMetrics, countOf, lineWith } from '#test/support/metrics';
import { api } from '../harness';
import { accountBody, schedulesRunByTheTest, useVerifyRuntime } from '../verify-accounts/support';

/**
 * `BANK_PROVIDER=increase-fake` (docs/local.md#real-rails-on-the-increase-fake): the local
 * runtime on the Increase fake as the receiving banks, days compressed. Nothing is applied
 * by hand: the fake's signed notice reaches POST /bank/notices, and BankReturnWindows
 * settles the windows that ended. The schedule's own timer is turned off here and the test
 * runs it (`runSchedule`), so on a machine of any speed the notice alone closes 2222, and a
 * quiet account is valid exactly when the schedule ran.
 */
const logs = captureLogs();
const metrics = captureMetrics();
const statementLines: string[] = [];
const env = useVerifyRuntime({
  increaseFake: { noticeDelayMs: 100, log: (line) => statementLines.push(line) },
  consumers: schedulesRunByTheTest('BankReturnWindows'),
});

let counter = 0;
async function created(suffix: string, over: Record<string, unknown> = {}) {
  const number = `${Date.now() % 100_000}${String(++counter).padStart(2, '0')}${suffix}`;
  const answer = await env.clients.alice.post('/verify/accounts', accountBody({ account_number: number, ...over }));
  expect(answer.status).toBe(200);
  // Pending when created: on rails nothing is known before a return or the window's end.
  expect(answer.body.account).toMatchObject({ verification_status: 'pending', debit_status: 'pending' });
  return answer.body.account.id as string;
}
const account = async (id: string) => (await env.clients.alice.get(`/verify/accounts/${id}`)).body.account;

describe('the local runtime on the Increase fake', () => {
  it('sends an account ending 2222 over ACH: the fake returns it R02 and its signed notice closes the account', async () => {
    const id = await created('2222');
    const fake = env.runtime.increaseFake;
    const status = await eventually(
      async () => fake?.prenotificationByKey(`tenant-alice.${id}.status.1`),
      (prenote) => prenote !== undefined,
    );
    expect(status).toMatchObject({
      status: 'returned',
      prenotification_return: { return_reason_code: 'account_closed' },
    });
    // The notice is answered once it is applied: the account is closed by then.
    await eventually(
      async () => fake?.notices.find((notice) => notice.objectId === status?.id),
      (notice) => notice !== undefined,
    );
    expect(fake?.notices.find((notice) => notice.objectId === status?.id)).toEqual({
      objectId: status?.id,
      status: 200,
    });
    expect(logs.find((line) => line.message === 'verification settled' && line.verify_account_id === id)).toMatchObject(
      { route: 'POST /bank/notices', verification_status: 'closed' },
    );
    expect(await account(id)).toMatchObject({
      verification_status: 'closed',
      status_reason: 'closed_account',
      debit_status: 'failed',
      debit_status_reason: 'closed_account',
    });
  });

  it('sends an account ending 6666: the receiving bank corrects its number (a notification of change), so it is invalid as given', async () => {
    const id = await created('6666');
    const settled = await eventually(
      () => account(id),
      (found) => found.verification_status !== 'pending',
    );
    expect(settled).toMatchObject({
      verification_status: 'invalid',
      status_reason: 'invalid_account',
      debit_status: 'failed',
      debit_status_reason: 'invalid_account',
    });
  });

  it('sends an account ending 7777: a notification of change of its type alone leaves it valid at the window’s end', async () => {
    const id = await created('7777');
    const fake = env.runtime.increaseFake;
    const ids = await eventually(
      async () =>
        (['status', 'debit'] as const).map((kind) => fake?.prenotificationByKey(`tenant-alice.${id}.${kind}.1`)?.id),
      (found) => found.every((prenote) => prenote !== undefined),
    );
    await eventually(
      async () => fake?.notices.filter((notice) => ids.includes(notice.objectId)).length ?? 0,
      (count) => count === 2,
    );
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
    await env.runtime.runSchedule('BankReturnWindows');
    await env.runtime.settle();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', debit_status: 'valid' });
  });

  it('keeps a plain account pending until its compressed return window ends, then BankReturnWindows makes it valid', async () => {
    const id = await created('6789');
    await env.runtime.settle();
    expect(await account(id)).toMatchObject({ verification_status: 'pending' });
    await env.runtime.runSchedule('BankReturnWindows');
    await env.runtime.settle();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', debit_status: 'valid' });
  });

  it('sends a valid control account its one-cent credit; the code logged from its company name proves control', async () => {
    const id = await created('6789', { type: 'control' });
    await env.runtime.settle();
    await env.runtime.runSchedule('BankReturnWindows');
    await env.runtime.settle();
    expect(await account(id)).toMatchObject({ verification_status: 'valid', control_status: 'pending' });
    const line = statementLines.find((entry) => entry.includes('1-cent credit') && /…\d{4}/.test(entry));
    const code = /from "[^"]* ([A-Z0-9]{4})", described "ACCTVERIFY"/.exec(line ?? '')?.[1];
    expect(code).toMatch(/^[A-Z0-9]{4}$/);
    const answer = await env.clients.alice.post(`/verify/accounts/${id}/control`, { statement_code: code });
    expect(answer.body).toMatchObject({ account: { control_status: 'valid' } });
  });

  it('sends a control account ending 8888 its credit, which the holder’s bank returns: control canceled, the account still valid', async () => {
    const id = await created('8888', { type: 'control' });
    await env.runtime.settle();
    await env.runtime.runSchedule('BankReturnWindows');
    await env.runtime.settle();
    const settled = await eventually(
      () => account(id),
      (found) => found.control_status === 'canceled',
      20_000,
    );
    expect(settled).toMatchObject({ verification_status: 'valid', control_status: 'canceled' });
  });

  it('answers a signed notice about an object Increase does not know 200 {}, applies nothing, and counts it', async () => {
    const fake = env.runtime.increaseFake;
    const { body, headers } = fake?.webhookFor('ach_transfer_999999') ?? { body: '', headers: {} };
    const answer = await api(env.runtime).post('/bank/notices', body, {
      headers: { 'service-version': undefined, ...headers },
      contract: false,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(countOf(metrics, 'BankNoticeIgnored')).toBe(1);
    expect(lineWith(metrics, 'BankNoticeIgnored')).toMatchObject({ reason: 'unknown_object' });
  });
});
