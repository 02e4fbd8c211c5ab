import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdentityData } from '#domain/person';
import { FakePlaid } from '#lib/local/fake-plaid';
import { webhookSigner } from '#lib/local/fake-plaid-webhooks';
import { clientUserIdOf } from '#shared/identity-vendor/plaid/client-user-id';
import { PlaidIdentityVendor } from '#shared/identity-vendor/plaid/plaid-vendor';

/**
 * The Plaid adapter against the Plaid fake (lib/local/fake-plaid.ts), which answers and
 * refuses as Plaid documents: one IDV per identification, read by id once known; each
 * documented answer mapped; failures retried with the same client_user_id; notices
 * checked with Plaid's signature, read again by id, and ignored when not the service's.
 */
let fake: FakePlaid;
let plaid: PlaidIdentityVendor;
const CHECK = { tenant: 'acme', id: '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b', identityRev: 1 };
const PERSON: IdentityData = {
  first_name: 'Jane',
  last_name: 'Doe',
  date_of_birth: '1990-04-12',
  ssn: '123456789',
  phone: '(212) 555-1212',
  address: { type: 'home', address1: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', zip5: '62701' },
};
const withSsn = (ssn: string): IdentityData => ({ ...PERSON, ssn });

async function start(options: Parameters<typeof FakePlaid.start>[0] = {}) {
  fake = await FakePlaid.start({ checkDelayMs: 0, ...options });
  const { clientId, secret, templateId, now } = fake.options;
  plaid = new PlaidIdentityVendor({ clientId, secret, templateId, baseURL: fake.url, retryDelayMs: 1, now });
}
beforeEach(() => start());
afterEach(() => fake.stop());

describe('the Plaid adapter: checks', () => {
  it('creates one IDV per identification: the KYC template, consent given, no shareable URL, idempotent, Plaid’s formats, no email', async () => {
    const answer = await plaid.verify(PERSON, CHECK);
    expect(answer).toEqual({ reasons: [], reference: expect.stringMatching(/^idv_/) });
    const [idv] = [...fake.idvs.values()];
    expect(idv?.client_user_id).toBe(clientUserIdOf(CHECK));
    expect(idv?.template.id).toBe(fake.options.templateId);
    expect(idv?.shareable_url).toBeNull();
    expect(idv?.user).toMatchObject({
      name: { given_name: 'Jane', family_name: 'Doe' },
      date_of_birth: '1990-04-12',
      id_number: { type: 'us_ssn', value: '123456789' },
      phone_number: '+12125551212',
      address: { street: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' },
      email_address: null,
    });
  });

  it('never pays twice: a repeated identification answers the first IDV, and a known one is read by id', async () => {
    const first = await plaid.verify(PERSON, CHECK);
    const again = await plaid.verify(PERSON, CHECK);
    const read = await plaid.verify(PERSON, { ...CHECK, reference: (first as { reference: string }).reference });
    expect(again).toEqual(first);
    expect(read).toEqual(first);
    expect(fake.createdPerUser.get(clientUserIdOf(CHECK))).toBe(1);
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/identity_verification/create',
      '/identity_verification/create',
      '/identity_verification/get',
    ]);
  });

  it('answers a check still running as pending with its id, and its answer once it ends', async () => {
    await fake.stop();
    await start({ checkDelayMs: 50 });
    const pending = await plaid.verify(withSsn('123450002'), CHECK);
    expect(pending).toEqual({ pending: true, vendor: 'plaid', reference: expect.stringMatching(/^idv_/) });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const reference = (pending as { reference: string }).reference;
    expect(await plaid.verify(withSsn('123450002'), { ...CHECK, reference })).toEqual({
      reasons: ['invalid_ssn'],
      reference,
    });
  });

  it.each([
    ['123450002', ['invalid_ssn']],
    ['123450003', ['invalid_name']],
    ['123450004', ['invalid_dob']],
    ['123450005', ['invalid_address']],
    ['123450006', ['invalid_phone']],
    ['123450007', ['unverified_identity']],
    ['123450008', ['invalid_address_type']],
    ['123451234', []],
  ])(
    'answers the sandbox identity with SSN %s as %j (docs/sandbox.md#persons-on-the-plaid-fake)',
    async (ssn, reasons) => {
      expect(await plaid.verify(withSsn(ssn), CHECK)).toMatchObject({ reasons });
    },
  );

  it('keeps an IDV held for review pending, and passes it once the reviewer has', async () => {
    await fake.stop();
    await start({ checkDelayMs: 0, reviewDelayMs: 50 });
    const held = await plaid.verify(withSsn('123450009'), CHECK);
    expect(held).toMatchObject({ pending: true });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await plaid.verify(withSsn('123450009'), CHECK)).toMatchObject({ reasons: [] });
  });

  it('sends no phone that is not a US number, rather than one Plaid would refuse', async () => {
    await plaid.verify({ ...PERSON, phone: '+44 20 7946 0958' }, CHECK);
    expect([...fake.idvs.values()][0]?.user.phone_number).toBeNull();
  });

  it('takes an expired or canceled IDV for no answer: an error, never a verdict', async () => {
    const first = (await plaid.verify(PERSON, CHECK)) as { reference: string };
    (fake.idvs.get(first.reference) as { status: string }).status = 'expired';
    await expect(plaid.verify(PERSON, { ...CHECK, reference: first.reference })).rejects.toMatchObject({
      name: 'PlaidCheckUnanswered',
    });
  });
});

describe('the Plaid adapter: failures', () => {
  it('retries a 429 and a 500 with the same client_user_id, and a lost answer meets the IDV it made', async () => {
    fake.failNext(1, 429);
    fake.failNext(1, 500, { afterWork: true });
    expect(await plaid.verify(PERSON, CHECK)).toMatchObject({ reasons: [] });
    expect(fake.requests).toHaveLength(3);
    expect(fake.createdPerUser.get(clientUserIdOf(CHECK))).toBe(1);
  });

  it('gives up after its retries with an error naming the operation and Plaid’s code, nothing of the person', async () => {
    fake.failNext(3, 500);
    const error = await plaid.verify(PERSON, CHECK).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'PlaidRequestFailed', status: 500, errorCode: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toMatch(
      /123456789|Jane|Doe|1990|Main|5551212/,
    );
  });

  it('is refused with 429 RATE_LIMIT_EXCEEDED past the rate limit', async () => {
    await fake.stop();
    await start({ rateLimitPerSecond: 1 });
    await plaid.verify(PERSON, CHECK);
    await expect(plaid.verify(PERSON, { ...CHECK, identityRev: 2 })).rejects.toMatchObject({
      status: 429,
      errorType: 'RATE_LIMIT_EXCEEDED',
    });
  });
});

describe('the Plaid adapter: notices', () => {
  const idvOf = async () => ((await plaid.verify(PERSON, CHECK)) as { reference: string }).reference;

  it('reads a signed STATUS_UPDATED: the IDV read again by id names its identification', async () => {
    const reference = await idvOf();
    const { body, headers } = await fake.notice(reference);
    expect(await plaid.readNotice(body, headers)).toEqual([{ ...CHECK, reference }]);
    expect(fake.requests.at(-1)?.path).toBe('/identity_verification/get');
  });

  it('refuses a notice unsigned, signed by another key, older than 5 minutes, or with another body', async () => {
    const reference = await idvOf();
    const signed = await fake.notice(reference);
    const forged = await fake.notice(reference, { signer: await webhookSigner(() => new Date()) });
    const stale = await fake.notice(reference, { at: new Date(Date.now() - 6 * 60_000) });
    for (const [body, headers] of [
      [signed.body, {}],
      [forged.body, forged.headers],
      [stale.body, stale.headers],
      [signed.body.replace(reference, 'idv_other'), signed.headers],
    ] as const) {
      await expect(plaid.readNotice(body, headers)).rejects.toMatchObject({ name: 'IdentityNoticeRefused' });
    }
  });

  it('ignores a signed notice of another kind, about an IDV Plaid does not know, or not the service’s', async () => {
    const reference = await idvOf();
    const other = await fake.notice(reference);
    const stepUpdated = other.body.replace('STATUS_UPDATED', 'STEP_UPDATED');
    const signedStep = {
      body: stepUpdated,
      headers: { 'plaid-verification': await fake.signer.sign(stepUpdated, new Date()) },
    };
    const unknown = await fake.notice('idv_unknown');
    (fake.idvs.get(reference) as { client_user_id: string }).client_user_id = 'someone-else';
    const notOurs = await fake.notice(reference);
    for (const [notice, reason] of [
      [signedStep, 'unused_kind'],
      [unknown, 'unknown_object'],
      [notOurs, 'not_ours'],
    ] as const) {
      await expect(plaid.readNotice(notice.body, notice.headers)).rejects.toMatchObject({
        name: 'IdentityNoticeIgnored',
        reason,
      });
    }
  });
});
