import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakePlaid } from '#lib/local/fake-plaid';
import { withDefaults } from '#lib/local/fake-plaid-options';

/** The Plaid fake refuses what Plaid refuses, with Plaid's error body (docs/local.md#identity-checks-on-the-plaid-fake). */
let fake: FakePlaid;
beforeEach(async () => {
  fake = await FakePlaid.start({ checkDelayMs: 0 });
});
afterEach(() => fake.stop());

const create = (body: Record<string, unknown>, credentials = fake.options) =>
  fetch(`${fake.url}/identity_verification/create`, {
    method: 'POST',
    headers: { 'PLAID-CLIENT-ID': credentials.clientId, 'PLAID-SECRET': credentials.secret },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));

const request = (over: Record<string, unknown> = {}, user: Record<string, unknown> = {}) => ({
  client_user_id: 'acme.0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b.1',
  template_id: withDefaults({}).templateId,
  gave_consent: true,
  is_shareable: false,
  is_idempotent: true,
  user: { name: { given_name: 'Jane', family_name: 'Doe' }, ...user },
  ...over,
});

describe('the Plaid fake', () => {
  it('refuses wrong credentials with 400 INVALID_API_KEYS', async () => {
    const answer = await create(request(), { ...fake.options, secret: 'wrong' });
    expect(answer).toMatchObject({
      status: 400,
      body: { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' },
    });
  });

  it.each([
    ['an unknown template', request({ template_id: 'idvtmp_other' })],
    ['a client_user_id over 128 characters', request({ client_user_id: 'x'.repeat(129) })],
    ['a date of birth not YYYY-MM-DD', request({}, { date_of_birth: '04/12/1990' })],
    ['a phone not in E.164', request({}, { phone_number: '2125551212' })],
    ['a country not two upper-case letters', request({}, { address: { country: 'usa' } })],
    ['an SSN not 9 digits', request({}, { id_number: { type: 'us_ssn', value: '123-45-6789' } })],
  ])('refuses %s with 400 INVALID_FIELD', async (_, body) => {
    expect(await create(body)).toMatchObject({ status: 400, body: { error_code: 'INVALID_FIELD' } });
  });

  it('answers a second create for a client_user_id with the first IDV when idempotent, else 400', async () => {
    const first = await create(request());
    expect((await create(request())).body.id).toBe(first.body.id);
    expect((await create(request({ is_idempotent: false }))).status).toBe(400);
    expect(fake.createdPerUser.get(request().client_user_id)).toBe(1);
  });

  it('answers an unknown IDV id with 400, and a key id it does not sign with with 400', async () => {
    const post = (path: string, body: object) =>
      fetch(`${fake.url}${path}`, {
        method: 'POST',
        headers: { 'PLAID-CLIENT-ID': fake.options.clientId, 'PLAID-SECRET': fake.options.secret },
        body: JSON.stringify(body),
      });
    expect((await post('/identity_verification/get', { identity_verification_id: 'idv_none' })).status).toBe(400);
    expect((await post('/webhook_verification_key/get', { key_id: 'other' })).status).toBe(400);
    expect((await post('/webhook_verification_key/get', { key_id: fake.signer.kid })).status).toBe(200);
  });
});
