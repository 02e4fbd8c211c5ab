import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { documentClient } from '#shared/db/document-client';
import { personKeys } from '#shared/db/persons/keys';
import { clientUserIdOf } from '#shared/identity-vendor/plaid/client-user-id';
import { eventually } from '#test/support/eventually';
import { captureMetrics, countOf, lineWith } from '#test/support/metrics';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';

/**
 * `IDENTITY_VENDOR=plaid-fake` (docs/local.md#identity-checks-on-the-plaid-fake): Service-KYC
 * through the Plaid adapter against the Plaid fake. Nothing is applied by hand: a check
 * starts `active` (the person stays `created`), the fake's signed STATUS_UPDATED reaches
 * POST /identity/notices, which queues the identification that reads the check by id.
 */
const metrics = captureMetrics();
let runtime: LocalRuntime;
let alice: ReturnType<typeof api>;
beforeAll(async () => {
  process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '60';
  runtime = await startTestRuntime({ plaidFake: { checkDelayMs: 300, reviewDelayMs: 300 } });
  alice = api(runtime, await runtime.mintToken('tenant-alice'));
});
afterAll(async () => {
  await runtime?.stop();
  delete process.env.IDENTIFICATION_RETRY_DELAY_SECONDS;
});

const person = async (id: string) => (await alice.get(`/persons/${id}`)).body.person;
const settledPerson = (id: string) =>
  eventually(
    () => person(id),
    (p) => p.status !== 'created',
  );
const stored = async (id: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: runtime.tableName, Key: personKeys.person('tenant-alice', id) }),
    )
  ).Item as Record<string, unknown>;
async function posted(ssn: string) {
  const answer = await alice.post('/persons', personBody({ social_security_number: ssn }));
  expect(answer.status).toBe(200);
  return answer.body.person.id as string;
}
const idvCount = (id: string, rev = 1) =>
  runtime.plaidFake?.createdPerUser.get(clientUserIdOf({ tenant: 'tenant-alice', id, identityRev: rev }));

describe('the local runtime on the Plaid fake', () => {
  it('keeps a person created while Plaid checks, then verifies it by Plaid’s signed notice, the IDV’s id kept', async () => {
    const id = await posted('123-45-6789');
    const pending = await eventually(
      () => stored(id),
      (item) => item.identity_check !== undefined,
    );
    expect(pending.status).toBe('created');
    const verified = await settledPerson(id);
    expect(verified.status).toBe('verified');
    expect((await stored(id)).identity_check).toMatchObject({
      vendor: 'plaid',
      reference: expect.stringMatching(/^idv_/),
    });
    expect(runtime.plaidFake?.notices.filter((n) => n.status === 200).length).toBeGreaterThan(0);
    expect(idvCount(id)).toBe(1);
    expect(countOf(metrics, 'IdentityCheckPending')).toBeGreaterThan(0);
  });

  it('rejects an SSN Plaid does not match (invalid_ssn), and its automatic retry reads the same IDV, never a second', async () => {
    const id = await posted('123-45-0002');
    const rejected = await settledPerson(id);
    expect(rejected.status_reasons.map((r: { reason_code: string }) => r.reason_code)).toEqual(['invalid_ssn']);
    const retried = await eventually(
      () => stored(id),
      (item) => item.identification_attempts === 2,
    );
    expect(retried.status).toBe('rejected');
    expect(idvCount(id)).toBe(1);
  });

  it('keeps a person created while Plaid holds its IDV for review, and verifies it once the reviewer passes it', async () => {
    const id = await posted('123-45-0009');
    expect((await settledPerson(id)).status).toBe('verified');
    expect(idvCount(id)).toBe(1);
  });

  it('answers a notice not signed by Plaid 401 invalid_signature, and one about an IDV it does not know 200, counted', async () => {
    const fake = runtime.plaidFake!;
    const signed = await fake.notice('idv_unknown');
    const unsigned = await api(runtime).post('/identity/notices', signed.body, {
      headers: { 'service-version': undefined, 'content-type': 'application/json' },
      contract: false,
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error_code).toBe('invalid_signature');
    const unknown = await api(runtime).post('/identity/notices', signed.body, {
      headers: { 'service-version': undefined, ...signed.headers },
      contract: false,
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({});
    expect(countOf(metrics, 'IdentityNoticeIgnored')).toBe(1);
    expect(lineWith(metrics, 'IdentityNoticeIgnored')).toMatchObject({ reason: 'unknown_object' });
  });

  it('leaves a person created, never rejected, while Plaid answers 500: retried with the same client_user_id, then dead-lettered', async () => {
    const fake = runtime.plaidFake!;
    const deadLetters = runtime.queues.deadLetterQueue('identification');
    const before = deadLetters.contents().length;
    fake.failNext(1000, 500);
    const id = await posted('123-45-6789');
    await eventually(
      async () => deadLetters.contents().length,
      (count) => count > before,
    );
    fake.clearFaults();
    expect(await person(id)).toMatchObject({ status: 'created' });
    expect((await person(id)).status_reasons).toBeUndefined();
    expect(idvCount(id)).toBeUndefined();
  });
});
