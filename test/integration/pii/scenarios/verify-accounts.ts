import { accountBody } from '#test/integration/verify-accounts/support';
import { ACCOUNT_NUMBERS as ACCOUNT, EIN, SSNS, STRAY_EIN } from '../support';
import { code, dashed, digits, ok, refused, type Scenario } from './context';

/** The Verify routes: owners' SSNs and tax ids, account numbers, statement codes. */
export const VERIFY_SCENARIOS: Record<string, Scenario> = {
  'POST /verify/accounts': async ({ alice, runtime, state, tokens, strayWebhookSecret }) => {
    const create = (over: Record<string, unknown>, headers?: Record<string, string>) =>
      alice.post('/verify/accounts', accountBody(over), { headers });
    const status = await create({ account_number: ACCOUNT.status });
    ok(status);
    const owner = { first_name: 'Jane', last_name: 'Doe', ssn: digits(SSNS.owner), phone_number: '+14155550123' };
    const ownership = await create(
      { account_number: ACCOUNT.ownership, type: 'status_ownership', person: owner },
      { 'idempotency-key': 'pii-ownership' },
    );
    ok(ownership);
    // The same key with another body: 422, and nothing of the new body is kept.
    refused(
      await create(
        { account_number: ACCOUNT.ownership, type: 'status_ownership', person: { ...owner, ssn: digits(SSNS.stray) } },
        { 'idempotency-key': 'pii-ownership' },
      ),
      422,
      'idempotency_key_reused',
    );
    ok(
      await create({
        account_number: ACCOUNT.business,
        type: 'control_ownership',
        business: { business_name: 'Doe Ltd', tax_id: digits(EIN) },
      }),
    );
    ok(
      await create({
        account_number: ACCOUNT.invalid,
        type: 'status_ownership',
        person: { ...owner, ssn: digits(SSNS.owner) },
      }),
    );
    const control = await create({ account_number: ACCOUNT.control, type: 'control', email: 'holder@example.com' });
    ok(control);
    state.accounts = {
      status: status.body.account.id,
      ownership: ownership.body.account.id,
      control: control.body.account.id,
    };

    refused(
      await create({ type: 'status_ownership', person: { ...owner, ssn: dashed(SSNS.owner) } }),
      400,
      'invalid_ssn',
    );
    refused(
      await create({ type: 'status_ownership', business: { business_name: 'Doe Ltd', tax_id: dashed(EIN) } }),
      400,
      'invalid_tax_id',
    );
    // Single hyphens are an account number's separators (Orum's pattern): a trailing one is not.
    refused(await create({ account_number: `${dashed(SSNS.stray)}-` }), 400, 'invalid_account_number');
    refused(await create({ routing_number: dashed(STRAY_EIN) }), 400, 'invalid_routing_number');
    refused(await create({ account_holder_name: tokens.alice }), 400, 'invalid_account_holder_name');
    refused(
      await create({ ssn: digits(SSNS.stray), tax_id: digits(STRAY_EIN), webhook_secret: strayWebhookSecret }),
      400,
      'unknown_field',
    );
    refused(
      await alice.post('/verify/accounts', `{"account_number":"${ACCOUNT.status}","ssn":"${dashed(SSNS.stray)}"`),
      400,
      'invalid_json',
    );
    // Five verifications of one bank account in 24 h, then 429.
    for (let n = 0; n < 5; n++) ok(await create({ account_number: ACCOUNT.limited }));
    refused(await create({ account_number: ACCOUNT.limited }), 429, 'too_many_verifications');
    await runtime.settle();
  },

  'GET /verify/accounts': async ({ alice }) => {
    ok(await alice.get(`/verify/accounts?account_number=${ACCOUNT.ownership}`));
    refused(await alice.get(`/verify/accounts?ssn=${digits(SSNS.stray)}`), 400, 'unknown_parameter');
    refused(await alice.get(`/verify/accounts?id=${digits(SSNS.stray)}`), 400, 'invalid_account_id');
    refused(
      await alice.get(`/verify/accounts?verification_status=${digits(STRAY_EIN)}`),
      400,
      'invalid_verification_status',
    );
    refused(
      await alice.get(`/verify/accounts?account_number=${ACCOUNT.status}&account_number=${ACCOUNT.control}`),
      400,
    );
  },

  'GET /verify/accounts/{id}': async ({ alice, bob, state }) => {
    ok(await alice.get(`/verify/accounts/${state.accounts.ownership}`));
    refused(await bob.get(`/verify/accounts/${state.accounts.ownership}`), 404, 'unknown_id');
    refused(await alice.get(`/verify/accounts/${digits(SSNS.stray)}`), 400, 'invalid_id');
    refused(await alice.get(`/verify/accounts/${ACCOUNT.status}`), 400, 'invalid_id');
  },

  'POST /verify/accounts/{id}/control': async ({ alice, bob, state }) => {
    const path = `/verify/accounts/${state.accounts.control}/control`;
    refused(await alice.post(path, { statement_code: code(0) }), 400, 'incorrect_statement_code');
    refused(await alice.post(path, { statement_code: code(1).toLowerCase() }), 400, 'incorrect_statement_code');
    refused(await alice.post(path, { statement_code: dashed(SSNS.stray) }), 400, 'invalid_statement_code');
    refused(await bob.post(path, { statement_code: code(2) }), 404, 'unknown_id');
    refused(
      await alice.post(`/verify/accounts/${state.accounts.status}/control`, { statement_code: code(2) }),
      400,
      'control_not_requested',
    );
    ok(await alice.post(path, { statement_code: '0000' }));
  },

  'POST /verify/accounts/{id}/debits': async ({ alice, bob, runtime, state }) => {
    const path = `/verify/accounts/${state.accounts.status}/debits`;
    ok(await alice.post(path));
    refused(await alice.post(path, { ssn: digits(SSNS.stray) }), 400, 'unknown_field');
    refused(await bob.post(path), 404, 'unknown_id');
    await runtime.settle();
  },
};
