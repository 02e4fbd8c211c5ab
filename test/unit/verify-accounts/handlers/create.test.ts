import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as create } from '#functions/verify-accounts/handlers/create';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { setDependencies } from '#shared/dependencies';
import {
  accountWriteFails,
  createEvent,
  ddb,
  FRIDAY,
  TABLE,
  TENANT,
  TEST_FIELD_CIPHER,
  useHandlerHarness,
  validCreateBody,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';
import { countOf } from '#test/support/metrics';

const harness = useHandlerHarness();

const SSN = '987654321';
const TAX_ID = '876543219';
const person = (extra: Record<string, unknown> = {}) => ({
  first_name: 'Jane',
  last_name: 'Doe',
  ssn: SSN,
  phone_number: '+14155550123',
  ...extra,
});
const business = (extra: Record<string, unknown> = {}) => ({
  business_name: 'Doe Holdings',
  tax_id: TAX_ID,
  phone_number: '+14155550199',
  ...extra,
});

async function rejected(body: unknown) {
  const res = await invoke(create, createEvent(body));
  expect(res.statusCode).toBe(400);
  return res.body as {
    error_code: string;
    message: string;
    details?: { issues: { field: string; problem: string }[] };
  };
}

/** The puts of one kind of item, in order. */
const putsOf = (entity: string) =>
  ddb
    .commandCalls(PutCommand)
    .map((c) => c.args[0].input)
    .filter((input) => input.Item?.entity === entity);

/** The slot claimed, then the account put: one of each, no transaction. */
function written() {
  const [slot, ...otherSlots] = putsOf('verification_slot');
  const [account, ...otherAccounts] = putsOf('verify_account');
  expect(otherSlots).toHaveLength(0);
  expect(otherAccounts).toHaveLength(0);
  expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  return { account: account.Item!, slot: slot.Item!, input: account, slotInput: slot };
}

/** The failure DynamoDB answers a conditional write whose condition does not hold. */
const conditionFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('POST /verify/accounts: account_number', () => {
  it('names a missing account_number: 400 missing_account_number', async () => {
    const { account_number: _, ...body } = validCreateBody();
    expect((await rejected(body)).error_code).toBe('missing_account_number');
  });

  it.each([
    ['3 digits', '123'],
    ['18 digits', '123456789012345678'],
    ['letters', '12345abc'],
    ['spaces', '1234 5678'],
    ['two hyphens in a row', '1234--5678'],
    ['a leading hyphen', '-12345678'],
    ['a trailing hyphen', '12345678-'],
    ['3 digits between hyphens', '1-2-3'],
    ['18 digits between hyphens', '123456-789012-345678'],
    ['an empty string', ''],
  ])('rejects an account_number of %s: 400 invalid_account_number', async (_what, accountNumber) => {
    expect((await rejected(validCreateBody({ account_number: accountNumber }))).error_code).toBe(
      'invalid_account_number',
    );
  });

  it('rejects an account_number sent as a JSON number: 400 invalid_account_number', async () => {
    expect((await rejected(validCreateBody({ account_number: 12345678 }))).error_code).toBe('invalid_account_number');
  });

  it.each([
    ['4 digits', '1234'],
    ['17 digits', '12345678901234567'],
    ['leading zeros', '0001234'],
  ])('accepts an account_number of %s', async (_what, accountNumber) => {
    const res = await invoke(create, createEvent(validCreateBody({ account_number: accountNumber })));

    expect(res.statusCode).toBe(200);
    expect(res.body.account.account_number).toBe(accountNumber);
  });

  it.each([
    ['Orum’s example 0010-1044595', '0010-1044595', '00101044595'],
    ['a hyphen between every digit', '1-2-3-4', '1234'],
    ['17 digits between hyphens', '12345678-901234567', '12345678901234567'],
  ])(
    'accepts an account_number with single hyphens (%s) and answers and stores its digits',
    async (_what, sent, digits) => {
      const res = await invoke(create, createEvent(validCreateBody({ account_number: sent })));

      expect(res.statusCode).toBe(200);
      expect(res.body.account.account_number).toBe(digits);
      const { account, slot } = written();
      const owner = { tenant: TENANT, record: res.body.account.id };
      expect(TEST_FIELD_CIPHER.openWithin({ account_number: account.account_number }, owner, 'verify_account')).toEqual(
        {
          account_number: digits,
        },
      );
      expect(account.gsi2pk).toBe(accountKeys.byAccountNumber(TENANT, digits));
      expect(slot.pk).toBe(accountKeys.slots(TENANT, '021000021', digits));
    },
  );
});

describe('POST /verify/accounts: routing_number', () => {
  it('names a missing routing_number: 400 missing_routing_number', async () => {
    const { routing_number: _, ...body } = validCreateBody();
    expect((await rejected(body)).error_code).toBe('missing_routing_number');
  });

  it.each([
    ['8 digits', '02100002'],
    ['10 digits', '0210000210'],
    ['letters', '02100002A'],
    ['a number type', 21000021],
  ])('rejects a routing_number of %s: 400 invalid_routing_number', async (_what, routingNumber) => {
    expect((await rejected(validCreateBody({ routing_number: routingNumber }))).error_code).toBe(
      'invalid_routing_number',
    );
  });

  it('rejects a routing number whose ABA checksum fails (021000022): 400 invalid_routing_number', async () => {
    expect((await rejected(validCreateBody({ routing_number: '021000022' }))).error_code).toBe(
      'invalid_routing_number',
    );
  });

  it.each(['021000021', '011000015', '122105155'])(
    'accepts a routing number whose ABA checksum holds (%s)',
    async (routingNumber) => {
      const res = await invoke(create, createEvent(validCreateBody({ routing_number: routingNumber })));

      expect(res.statusCode).toBe(200);
      expect(res.body.account.routing_number).toBe(routingNumber);
    },
  );
});

describe('POST /verify/accounts: account_holder_name and sender_name', () => {
  it('names a missing account_holder_name: 400 missing_account_holder_name', async () => {
    const { account_holder_name: _, ...body } = validCreateBody();
    expect((await rejected(body)).error_code).toBe('missing_account_holder_name');
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'a'.repeat(256)],
    ['holding a backslash', 'Jane \\ Doe'],
    ['holding a Cyrillic letter', 'Jаne Doe'],
    ['made of punctuation only', "- . '"],
    ['not a string', 42],
  ])('rejects an account_holder_name %s: 400 invalid_account_holder_name', async (_what, name) => {
    expect((await rejected(validCreateBody({ account_holder_name: name }))).error_code).toBe(
      'invalid_account_holder_name',
    );
  });

  it.each([
    ['diacritics', 'José Núñez'],
    ['a hyphen', 'Anne-Marie Smith'],
    ['an apostrophe', "Conan O'Brien"],
    ['a period', 'John Q. Public Jr.'],
    ['digits', 'Unit 42 Holdings'],
    ['a comma and an ampersand (Orum’s AccountHolderName takes printable ASCII)', 'Smith & Sons, Inc.'],
    ['an @, a semicolon and parentheses', 'Acme @ Home; (East)'],
    ['255 characters', 'a'.repeat(255)],
    ['a single character', 'J'],
  ])('accepts an account_holder_name with %s', async (_what, name) => {
    const res = await invoke(create, createEvent(validCreateBody({ account_holder_name: name })));

    expect(res.statusCode).toBe(200);
    expect(res.body.account.account_holder_name).toBe(name);
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'b'.repeat(256)],
    ['holding a backslash', 'Acme \\ Corp'],
    ['not a string', true],
  ])('rejects a sender_name %s: 400 invalid_sender_name', async (_what, name) => {
    expect((await rejected(validCreateBody({ sender_name: name }))).error_code).toBe('invalid_sender_name');
  });

  it.each([
    ['plain', 'Acme Payroll'],
    ['an ampersand, a comma and an @ (Orum’s SenderName takes printable ASCII)', 'Smith & Sons, Inc. @ Payroll'],
  ])('returns a valid sender_name as given: %s', async (_what, name) => {
    const res = await invoke(create, createEvent(validCreateBody({ sender_name: name })));

    expect(res.statusCode).toBe(200);
    expect(res.body.account.sender_name).toBe(name);
  });
});

describe('POST /verify/accounts: type and email', () => {
  it.each(['ownership', 'STATUS', '', 7])(
    'rejects a type outside the four verification types (%s): 400 invalid_type',
    async (type) => {
      expect((await rejected(validCreateBody({ type }))).error_code).toBe('invalid_type');
    },
  );

  it.each(['not-an-email', 'jane@', '@example.com', 'jane doe@example.com', 42])(
    'rejects an email that is not an email address (%s): 400 invalid_email',
    async (email) => {
      expect((await rejected(validCreateBody({ email }))).error_code).toBe('invalid_email');
    },
  );

  it('rejects an email longer than 254 characters: 400 invalid_email', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}.com`;
    expect(email.length).toBeGreaterThan(254);
    expect((await rejected(validCreateBody({ email }))).error_code).toBe('invalid_email');
  });
});

describe('POST /verify/accounts: unknown fields', () => {
  it('rejects a top-level field the contract does not know: 400 unknown_field', async () => {
    const body = await rejected(validCreateBody({ nickname: 'main account' }));

    expect(body.error_code).toBe('unknown_field');
    expect(body.details?.issues).toContainEqual(expect.objectContaining({ field: 'nickname', problem: 'unknown' }));
  });

  it('rejects an unknown field inside person: 400 unknown_field', async () => {
    const body = await rejected(validCreateBody({ type: 'status_ownership', person: person({ middle_name: 'Q' }) }));

    expect(body.error_code).toBe('unknown_field');
    expect(body.details?.issues).toContainEqual(
      expect.objectContaining({ field: 'person.middle_name', problem: 'unknown' }),
    );
  });

  it('rejects an unknown field inside business: 400 unknown_field', async () => {
    const body = await rejected(validCreateBody({ type: 'status_ownership', business: business({ ein: '12' }) }));

    expect(body.error_code).toBe('unknown_field');
  });

  it('reports an unknown field before any other failing field', async () => {
    const body = await rejected({ account_number: '1', extra: true });

    expect(body.error_code).toBe('unknown_field');
  });
});

describe('POST /verify/accounts: person and business answer per field, as Orum', () => {
  it.each([
    ['an SSN of 8 digits', 'invalid_ssn', { ssn: '12345678' }],
    ['an SSN with dashes', 'invalid_ssn', { ssn: '123-45-6789' }],
    ['an SSN as a number', 'invalid_ssn', { ssn: 123456789 }],
    ['a phone number not in E.164', 'invalid_phone_number', { phone_number: '4155550123' }],
    ['a phone number with spaces', 'invalid_phone_number', { phone_number: '+1 415 555 0123' }],
    ['a first_name with a backslash', 'invalid_first_name', { first_name: 'J\\ne' }],
    ['an empty last_name', 'invalid_last_name', { last_name: '' }],
  ])('rejects a person with %s: 400 %s', async (_what, code, change) => {
    expect((await rejected(validCreateBody({ type: 'status_ownership', person: person(change) }))).error_code).toBe(
      code,
    );
  });

  it.each([
    ['first_name', 'missing_first_name'],
    ['last_name', 'missing_last_name'],
  ] as const)('names a person without a %s: 400 %s', async (field, code) => {
    const { [field]: _, ...incomplete } = person();
    expect((await rejected(validCreateBody({ type: 'status_ownership', person: incomplete }))).error_code).toBe(code);
  });

  it('rejects a person that is not an object: 400 invalid_person', async () => {
    expect((await rejected(validCreateBody({ type: 'status_ownership', person: 'Jane Doe' }))).error_code).toBe(
      'invalid_person',
    );
  });

  it.each([
    ['a tax_id of 8 digits', 'invalid_tax_id', { tax_id: '12345678' }],
    ['a tax_id with a dash', 'invalid_tax_id', { tax_id: '12-3456789' }],
    ['a phone number not in E.164', 'invalid_phone_number', { phone_number: '555-0199' }],
    ['a business_name of punctuation only', 'invalid_business_name', { business_name: '<&>' }],
  ])('rejects a business with %s: 400 %s', async (_what, code, change) => {
    expect((await rejected(validCreateBody({ type: 'status_ownership', business: business(change) }))).error_code).toBe(
      code,
    );
  });

  it('names a business without a business_name: 400 missing_business_name', async () => {
    const { business_name: _, ...incomplete } = business();
    expect((await rejected(validCreateBody({ type: 'status_ownership', business: incomplete }))).error_code).toBe(
      'missing_business_name',
    );
  });

  it('rejects a business that is not an object: 400 invalid_business', async () => {
    expect((await rejected(validCreateBody({ type: 'status_ownership', business: [] }))).error_code).toBe(
      'invalid_business',
    );
  });

  it('does not echo a rejected SSN in the error body', async () => {
    const res = await invoke(
      create,
      createEvent(validCreateBody({ type: 'status_ownership', person: person({ ssn: '12345678' }) })),
    );

    expect(res.statusCode).toBe(400);
    expect(res.raw).not.toContain('12345678');
  });
});

describe('POST /verify/accounts: ownership details', () => {
  it.each(['status_ownership', 'control_ownership'])(
    'requires a person or a business for type %s: 400 missing_ownership_details',
    async (type) => {
      expect((await rejected(validCreateBody({ type }))).error_code).toBe('missing_ownership_details');
    },
  );

  it('refuses both a person and a business: 400 invalid_ownership_details', async () => {
    const body = validCreateBody({ type: 'status_ownership', person: person(), business: business() });
    expect((await rejected(body)).error_code).toBe('invalid_ownership_details');
  });

  it.each([
    ['status', 'person', person()],
    ['status', 'business', business()],
    ['control', 'person', person()],
  ])(
    'refuses ownership details on a type %s that does not check ownership (%s): 400 invalid_ownership_details',
    async (type, key, value) => {
      expect((await rejected(validCreateBody({ type, [key]: value }))).error_code).toBe('invalid_ownership_details');
    },
  );

  it('refuses a person when type is omitted (it defaults to status): 400 invalid_ownership_details', async () => {
    expect((await rejected(validCreateBody({ person: person() }))).error_code).toBe('invalid_ownership_details');
  });
});

describe('POST /verify/accounts: the first failing field is named', () => {
  it('names account_number, the first field, when every required field is missing, and lists all in details.issues', async () => {
    const body = await rejected({});

    expect(body.error_code).toBe('missing_account_number');
    expect(body.details?.issues).toEqual([
      expect.objectContaining({ field: 'account_number', problem: 'missing' }),
      expect.objectContaining({ field: 'routing_number', problem: 'missing' }),
      expect.objectContaining({ field: 'account_holder_name', problem: 'missing' }),
    ]);
  });

  it('names the routing number before a bad email, and lists both issues', async () => {
    const body = await rejected(validCreateBody({ routing_number: '021000022', email: 'nope' }));

    expect(body.error_code).toBe('invalid_routing_number');
    expect(body.details?.issues.map((i) => i.field)).toEqual(['routing_number', 'email']);
  });

  it('names the nested field by its own code and in details.issues', async () => {
    const body = await rejected(validCreateBody({ type: 'status_ownership', person: person({ ssn: '1234' }) }));

    expect(body.error_code).toBe('invalid_ssn');
    expect(body.details?.issues).toEqual([expect.objectContaining({ field: 'person.ssn', problem: 'invalid' })]);
  });

  it('writes nothing when the body is invalid', async () => {
    await rejected(validCreateBody({ routing_number: '021000022' }));

    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(harness.cipher.encrypted).toHaveLength(0);
  });
});

describe('POST /verify/accounts: a new account', () => {
  it('answers 200 { account } with verification and debit pending and only the supplied fields', async () => {
    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.body)).toEqual(['account']);
    expect(res.body.account).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      created_at: '2026-01-16T15:30:00.000Z',
      updated_at: '2026-01-16T15:30:00.000Z',
      type: 'status',
      account_number: '123456789',
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
      verification_status: 'pending',
      debit_status: 'pending',
      estimated_verification_date: '2026-01-16T00:00:00.000Z',
    });
  });

  it('omits fields that were not supplied or do not apply rather than sending null', async () => {
    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.raw).not.toContain('null');
    for (const absent of [
      'email',
      'sender_name',
      'person',
      'business',
      'ownership_status',
      'control_status',
      'status_reason',
      'debit_status_reason',
    ]) {
      expect(res.body.account).not.toHaveProperty(absent);
    }
  });

  it('defaults type to status', async () => {
    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.body.account.type).toBe('status');
    expect(written().account.type).toBe('status');
  });

  it('gives a status verification an estimate of midnight UTC today', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ type: 'status' })));

    expect(res.body.account.estimated_verification_date).toBe('2026-01-16T00:00:00.000Z');
  });

  it.each(['control', 'control_ownership'])(
    'gives a %s verification created on a Friday an estimate of Monday midnight UTC',
    async (type) => {
      const extra = type === 'control_ownership' ? { person: person() } : {};
      const res = await invoke(create, createEvent(validCreateBody({ type, ...extra })));

      expect(res.statusCode).toBe(200);
      expect(res.body.account.estimated_verification_date).toBe('2026-01-19T00:00:00.000Z');
    },
  );

  it('gives a status_ownership verification an estimate of midnight UTC today', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ type: 'status_ownership', person: person() })));

    expect(res.body.account.estimated_verification_date).toBe('2026-01-16T00:00:00.000Z');
  });

  it('gives a control verification created on a Sunday an estimate of Monday midnight UTC', async () => {
    setDependencies({ now: () => new Date('2026-01-18T23:59:59.999Z') });

    const res = await invoke(create, createEvent(validCreateBody({ type: 'control' })));

    expect(res.body.account.estimated_verification_date).toBe('2026-01-19T00:00:00.000Z');
    expect(res.body.account.created_at).toBe('2026-01-18T23:59:59.999Z');
  });

  it.each([
    ['status', { verification_status: 'pending', debit_status: 'pending' }, ['ownership_status', 'control_status']],
    [
      'control',
      { verification_status: 'pending', debit_status: 'pending', control_status: 'pending' },
      ['ownership_status'],
    ],
    [
      'status_ownership',
      { verification_status: 'pending', debit_status: 'pending', ownership_status: 'pending' },
      ['control_status'],
    ],
    [
      'control_ownership',
      {
        verification_status: 'pending',
        debit_status: 'pending',
        ownership_status: 'pending',
        control_status: 'pending',
      },
      [],
    ],
  ])('type %s: every applicable status is pending and the others are absent', async (type, statuses, absent) => {
    const extra = type.endsWith('ownership') ? { person: person() } : {};
    const res = await invoke(create, createEvent(validCreateBody({ type, ...extra })));

    expect(res.statusCode).toBe(200);
    expect(res.body.account).toMatchObject(statuses);
    for (const key of absent) expect(res.body.account).not.toHaveProperty(key);
  });

  it('returns the supplied email, and the person without its SSN', async () => {
    const res = await invoke(
      create,
      createEvent(validCreateBody({ type: 'control_ownership', email: 'jane@example.com', person: person() })),
    );

    expect(res.statusCode).toBe(200);
    expect(res.body.account.email).toBe('jane@example.com');
    expect(res.body.account.person).toEqual({ first_name: 'Jane', last_name: 'Doe', phone_number: '+14155550123' });
  });

  it('never returns the SSN anywhere in the response', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ type: 'status_ownership', person: person() })));

    expect(res.statusCode).toBe(200);
    expect(res.raw).not.toContain(SSN);
    expect(res.raw).not.toContain('ssn"');
  });

  it('never returns the tax id anywhere in the response', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ type: 'status_ownership', business: business() })));

    expect(res.statusCode).toBe(200);
    expect(res.body.account.business).toEqual({ business_name: 'Doe Holdings', phone_number: '+14155550199' });
    expect(res.raw).not.toContain(TAX_ID);
    expect(res.raw).not.toContain('tax_id"');
  });

  it('stores the account under the tenant with every presented field and pending statuses, its account number sealed to it', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ email: 'jane@example.com' })));
    const { account, input } = written();

    expect(input.TableName).toBe(TABLE);
    expect(input.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(account).toMatchObject({
      ...accountKeys.account(TENANT, res.body.account.id),
      entity: 'verify_account',
      tenant: TENANT,
      id: res.body.account.id,
      account_number: expect.stringMatching(/^fk1:/),
      routing_number: '021000021',
      email: 'jane@example.com',
      verification_status: 'pending',
      debit_status: 'pending',
      control_attempts: 0,
      version: 1,
    });
    const owner = { tenant: TENANT, record: res.body.account.id };
    expect(TEST_FIELD_CIPHER.openWithin({ account_number: account.account_number }, owner, 'verify_account')).toEqual({
      account_number: '123456789',
    });
  });

  it('stores the SSN only as the cipher’s ciphertext, bound to the tenant and account', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ type: 'status_ownership', person: person() })));
    const { account } = written();

    expect(harness.cipher.encrypted).toEqual([
      { plaintext: SSN, context: { tenant: TENANT, verify_account_id: res.body.account.id, purpose: 'ownership' } },
    ]);
    expect(account.ownership_secret).toBe('fake-ciphertext-1');
    expect(account.has_ssn).toBe(true);
    expect(JSON.stringify(account)).not.toContain(SSN);
    expect(JSON.stringify(ddb.calls().map((c) => c.args[0].input))).not.toContain(SSN);
  });

  it('stores the tax id only as the cipher’s ciphertext', async () => {
    await invoke(create, createEvent(validCreateBody({ type: 'status_ownership', business: business() })));
    const { account } = written();

    expect(harness.cipher.encrypted.map((e) => e.plaintext)).toEqual([TAX_ID]);
    expect(account.ownership_secret).toBe('fake-ciphertext-1');
    expect(account.has_tax_id).toBe(true);
    expect(JSON.stringify(ddb.calls().map((c) => c.args[0].input))).not.toContain(TAX_ID);
  });

  it('calls no cipher and stores no secret when no SSN or tax id is given', async () => {
    const { ssn: _, ...withoutSsn } = person();
    await invoke(create, createEvent(validCreateBody({ type: 'status_ownership', person: withoutSsn })));
    const { account } = written();

    expect(harness.cipher.encrypted).toHaveLength(0);
    expect(account.ownership_secret).toBeUndefined();
    expect(account.has_ssn).toBeUndefined();
  });

  it('chooses no statement code at creation: the code comes with the credit, after verification', async () => {
    await invoke(create, createEvent(validCreateBody({ type: 'control' })));
    const { account } = written();

    expect(account.statement_code_hash).toBeUndefined();
    expect(account.statement_code_sent_at).toBeUndefined();
    expect(account.control_status).toBe('pending');
  });
});

describe('POST /verify/accounts: 5 verifications of one bank account per 24 h', () => {
  // A getter: the key's digest needs the harness's digest key, set before each test.
  const slotsPk = () => accountKeys.slots(TENANT, '021000021', '123456789');
  const slot = (n: number, expiresAtMs: number) => ({ pk: slotsPk(), sk: `SLOT#${n}`, expires_at_ms: expiresAtMs });
  const live = FRIDAY.getTime() + 60_000;
  const expired = FRIDAY.getTime() - 1;

  it('takes the first free slot of this tenant’s routing + account number, expiring in 24 h', async () => {
    ddb.on(QueryCommand).resolves({ Items: [slot(0, live), slot(1, live)] });

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    expect(ddb.commandCalls(QueryCommand)[0].args[0].input.ExpressionAttributeValues).toEqual({ ':pk': slotsPk() });
    expect(written().slot).toMatchObject({
      pk: slotsPk(),
      sk: 'SLOT#2',
      account_id: res.body.account.id,
      expires_at_ms: FRIDAY.getTime() + 24 * 60 * 60 * 1000,
    });
  });

  it('answers the sixth verification within 24 h with 429 too_many_verifications and writes nothing', async () => {
    ddb.on(QueryCommand).resolves({ Items: [0, 1, 2, 3, 4].map((n) => slot(n, live)) });

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(429);
    expect(res.body.error_code).toBe('too_many_verifications');
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('reuses a slot once its 24 h have passed', async () => {
    ddb
      .on(QueryCommand)
      .resolves({ Items: [slot(0, live), slot(1, live), slot(2, expired), slot(3, live), slot(4, live)] });

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    expect(written().slot.sk).toBe('SLOT#2');
  });

  it('claims the slot before writing the account, on condition that no live claim holds it', async () => {
    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    const puts = ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item?.entity);
    expect(puts).toEqual(['verification_slot', 'verify_account']);
    expect(written().slotInput).toMatchObject({
      TableName: TABLE,
      ConditionExpression: 'attribute_not_exists(pk) OR expires_at_ms <= :now',
      ExpressionAttributeValues: { ':now': FRIDAY.getTime() },
    });
  });

  it('proposes a slot from an eventually consistent read; only a refusal is read strongly consistent', async () => {
    await invoke(create, createEvent(validCreateBody()));
    expect(ddb.commandCalls(QueryCommand).map((c) => c.args[0].input.ConsistentRead)).toEqual([false]);

    ddb.reset();
    ddb.on(QueryCommand).resolves({ Items: [0, 1, 2, 3, 4].map((n) => slot(n, live)) });
    await invoke(create, createEvent(validCreateBody()));
    expect(ddb.commandCalls(QueryCommand).map((c) => c.args[0].input.ConsistentRead)).toEqual([false, true]);
  });

  it('answers 200 when a stale read hid a slot freed a moment ago: the consistent read finds it', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [0, 1, 2, 3, 4].map((n) => slot(n, live)) })
      .resolves({ Items: [0, 1, 2, 4].map((n) => slot(n, live)) });

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    expect(written().slot.sk).toBe('SLOT#3');
  });

  it('looks again when another request took the same slot first', async () => {
    ddb
      .on(PutCommand, { Item: { entity: 'verification_slot' } })
      .rejectsOnce(conditionFailed())
      .resolves({});
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [slot(0, live)] });

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    expect(putsOf('verification_slot').map((p) => p.Item?.sk)).toEqual(['SLOT#0', 'SLOT#1']);
    expect(putsOf('verify_account')).toHaveLength(1);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('never proposes a slot it lost again, even when a stale read still shows it free', async () => {
    ddb.on(PutCommand, { Item: { entity: 'verification_slot' } }).rejects(conditionFailed());

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(429);
    expect(res.body.error_code).toBe('too_many_verifications');
    expect(putsOf('verification_slot').map((p) => p.Item?.sk)).toEqual([0, 1, 2, 3, 4].map((n) => `SLOT#${n}`));
    expect(putsOf('verify_account')).toHaveLength(0);
  });

  it('releases its slot when the account write fails, and answers the write’s own error', async () => {
    accountWriteFails(new Error('throttled'));

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(500);
    const [claim] = putsOf('verification_slot');
    const deletes = ddb.commandCalls(DeleteCommand).map((c) => c.args[0].input);
    expect(deletes).toEqual([
      {
        TableName: TABLE,
        Key: { pk: slotsPk(), sk: claim.Item?.sk },
        ConditionExpression: 'account_id = :account AND expires_at_ms = :expires',
        ExpressionAttributeValues: { ':account': claim.Item?.account_id, ':expires': claim.Item?.expires_at_ms },
      },
    ]);
  });

  it('answers the write’s error and logs the lost release when the release fails too (the slot lapses in 24 h)', async () => {
    accountWriteFails(new Error('throttled'));
    ddb.on(DeleteCommand).rejects(new Error('throttled again'));

    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(500);
    expect(res.body.error_code).toBe('internal_server_error');
    expect(harness.logs.join('\n')).toContain('verification slot not released');
  });

  it('does not mix up slots of different bank accounts (the slot partition is per routing + account number)', async () => {
    await invoke(create, createEvent(validCreateBody({ account_number: '555566667777' })));

    expect(written().slot.pk).toBe(accountKeys.slots(TENANT, '021000021', '555566667777'));
    expect(written().slot.pk).not.toBe(slotsPk());
  });
});

describe('POST /verify/accounts: logs', () => {
  it('writes no SSN, tax id or account number to the logs for a create request', async () => {
    await invoke(
      create,
      createEvent(validCreateBody({ account_number: '123498765', type: 'status_ownership', person: person() })),
    );
    await invoke(
      create,
      createEvent(validCreateBody({ account_number: '123498765', type: 'status_ownership', business: business() })),
    );

    expect(harness.logs.length).toBeGreaterThan(0);
    const all = harness.logs.join('\n');
    expect(all).not.toContain(SSN);
    expect(all).not.toContain(TAX_ID);
    expect(all).not.toContain('123498765');
  });

  it('writes no SSN, tax id or account number when the create is rejected or fails', async () => {
    await invoke(
      create,
      createEvent(validCreateBody({ account_number: '123498765', type: 'status', person: person() })),
    );
    accountWriteFails(new Error('boom'));
    await invoke(
      create,
      createEvent(validCreateBody({ account_number: '123498765', type: 'status_ownership', business: business() })),
    );

    const all = harness.logs.join('\n');
    expect(all).toContain('request failed');
    expect(all).not.toContain(SSN);
    expect(all).not.toContain(TAX_ID);
    expect(all).not.toContain('123498765');
  });
});

describe('POST /verify/accounts: metrics', () => {
  it('counts one VerificationCreated per account created', async () => {
    const res = await invoke(create, createEvent(validCreateBody()));

    expect(res.statusCode).toBe(200);
    expect(countOf(harness.metrics, 'VerificationCreated')).toBe(1);
  });

  it('counts none for a rejected request, a refused verification or a failed write', async () => {
    expect((await invoke(create, createEvent(validCreateBody({ routing_number: '123456789' })))).statusCode).toBe(400);
    ddb.on(QueryCommand).resolves({ Items: [0, 1, 2, 3, 4].map((n) => ({ sk: `SLOT#${n}`, expires_at_ms: 9e15 })) });
    expect((await invoke(create, createEvent(validCreateBody()))).statusCode).toBe(429);
    ddb.on(QueryCommand).resolves({ Items: [] });
    accountWriteFails(new Error('boom'));
    expect((await invoke(create, createEvent(validCreateBody()))).statusCode).toBe(500);

    expect(countOf(harness.metrics, 'VerificationCreated')).toBe(0);
  });
});
