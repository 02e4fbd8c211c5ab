import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type { MetadataValue } from '#domain/person';
import type { person as personObject } from '#functions/persons/openapi-responses';
import { personIdParams } from '#functions/persons/path-params';
import type { presentPerson } from '#functions/persons/present';
import { type ListPersonsQuery, listPersonsQuery } from '#functions/persons/query-schemas';
import {
  type CreatePersonBody,
  createPersonBody,
  type PatchPersonBody,
  patchPersonBody,
} from '#functions/persons/request-schemas';
import type { createPerson, patchPerson, replacePerson } from '#functions/persons/write-person';
import { createVerifyAccountBody } from '#functions/verify-accounts/request-schemas';
import { AppError } from '#shared/errors';
import { pageRequestOf } from '#shared/http/pages';
import { type InputSource, parseInput } from '#shared/validation';

/** The error an HTTP caller would get for this input, or `undefined` when it is accepted. */
function errorOf(schema: z.core.$ZodType, input: unknown, source: InputSource = 'body'): AppError | undefined {
  try {
    parseInput(schema, input, source);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error;
  }
}
const codeOf = (schema: z.core.$ZodType, input: unknown, source: InputSource = 'body') =>
  errorOf(schema, input, source)?.code ?? 'accepted';

const PERSON_ID = '7d3e2b8a-4c1f-4e6a-9b0d-2f5a8c1e3d47';
const person = { customer_reference_id: 'cust-1', first_name: 'Ann', last_name: 'Lee' };
const home = { type: 'home', address1: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', zip5: '62701' };
const email = { type: 'email', value: 'ann@example.com' };
const phone = { type: 'phone', value: '+14155550123' };
const long = (n: number) => 'a'.repeat(n);
/** `[[…[]…]]`, `depth` lists deep. */
const nested = (depth: number): unknown[] => (depth <= 1 ? [] : [nested(depth - 1)]);
const withAddress = (change: Record<string, unknown>) => ({ ...person, addresses: [{ ...home, ...change }] });
const withContact = (change: Record<string, unknown>) => ({ ...person, contacts: [{ ...email, ...change }] });
const without = (key: string) => (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

/** [rule, body, code]: every body rule of create and replace, with the code Orum documents for it. */
const BODY_RULES: [string, Record<string, unknown>, string][] = [
  ['customer_reference_id absent', without('customer_reference_id')(person), 'missing_customer_reference_id'],
  ['customer_reference_id empty', { ...person, customer_reference_id: '' }, 'invalid_customer_reference_id'],
  [
    'customer_reference_id of 256 characters',
    { ...person, customer_reference_id: long(256) },
    'invalid_customer_reference_id',
  ],
  ['customer_reference_id a number', { ...person, customer_reference_id: 1 }, 'invalid_customer_reference_id'],
  ['customer_reference_id null', { ...person, customer_reference_id: null }, 'invalid_customer_reference_id'],
  ['first_name absent', without('first_name')(person), 'missing_first_name'],
  ['first_name empty', { ...person, first_name: '' }, 'invalid_first_name'],
  ['first_name of 256 characters', { ...person, first_name: long(256) }, 'invalid_first_name'],
  ['first_name with a digit', { ...person, first_name: 'Ann2' }, 'invalid_first_name'],
  ['first_name with a backslash', { ...person, first_name: 'Ann\\' }, 'invalid_first_name'],
  ['first_name in a non-Latin script', { ...person, first_name: 'Анна' }, 'invalid_first_name'],
  ['first_name of spaces and periods only', { ...person, first_name: ' . ' }, 'invalid_first_name'],
  ['first_name null', { ...person, first_name: null }, 'invalid_first_name'],
  ['last_name absent', without('last_name')(person), 'missing_last_name'],
  ['last_name with a digit', { ...person, last_name: 'Lee 3rd' }, 'invalid_last_name'],
  ['last_name with a tab', { ...person, last_name: 'Lee\tJr' }, 'invalid_last_name'],
  ['last_name of 256 characters', { ...person, last_name: long(256) }, 'invalid_last_name'],
  ['middle_name with a digit', { ...person, middle_name: 'J2' }, 'invalid_middle_name'],
  ['middle_name of 256 characters', { ...person, middle_name: long(256) }, 'invalid_middle_name'],
  ['middle_name a number', { ...person, middle_name: 3 }, 'invalid_middle_name'],
  ['date_of_birth without zero padding', { ...person, date_of_birth: '1990-1-2' }, 'invalid_date_of_birth'],
  ['date_of_birth as MM/DD/YYYY', { ...person, date_of_birth: '01/02/1990' }, 'invalid_date_of_birth'],
  ['date_of_birth without dashes', { ...person, date_of_birth: '19900102' }, 'invalid_date_of_birth'],
  ['date_of_birth with a time', { ...person, date_of_birth: '1990-01-02T00:00:00Z' }, 'invalid_date_of_birth'],
  ['date_of_birth a number', { ...person, date_of_birth: 19900102 }, 'invalid_date_of_birth'],
  ['date_of_birth in month 13', { ...person, date_of_birth: '1990-13-40' }, 'invalid_date_of_birth'],
  ['date_of_birth in month 00', { ...person, date_of_birth: '1990-00-10' }, 'invalid_date_of_birth'],
  ['date_of_birth on day 00', { ...person, date_of_birth: '1990-01-00' }, 'invalid_date_of_birth'],
  ['date_of_birth on Feb 29 of a common year', { ...person, date_of_birth: '2023-02-29' }, 'invalid_date_of_birth'],
  ['date_of_birth on April 31', { ...person, date_of_birth: '1990-04-31' }, 'invalid_date_of_birth'],
  ['date_of_birth before 1900', { ...person, date_of_birth: '1899-12-31' }, 'invalid_date_of_birth'],
  ['date_of_birth after 2099', { ...person, date_of_birth: '2100-01-01' }, 'invalid_date_of_birth'],
  [
    'social_security_number of 8 digits',
    { ...person, social_security_number: '12345678' },
    'invalid_social_security_number',
  ],
  [
    'social_security_number of 10 digits',
    { ...person, social_security_number: '1234567890' },
    'invalid_social_security_number',
  ],
  [
    'social_security_number dashed wrongly',
    { ...person, social_security_number: '123-456789' },
    'invalid_social_security_number',
  ],
  [
    'social_security_number with spaces',
    { ...person, social_security_number: '123 45 6789' },
    'invalid_social_security_number',
  ],
  [
    'social_security_number with a letter',
    { ...person, social_security_number: '12a-45-6789' },
    'invalid_social_security_number',
  ],
  [
    'social_security_number a number',
    { ...person, social_security_number: 123456789 },
    'invalid_social_security_number',
  ],
  ['addresses not a list', { ...person, addresses: home }, 'invalid_addresses'],
  ['addresses empty', { ...person, addresses: [] }, 'invalid_addresses'],
  ['addresses holding two', { ...person, addresses: [home, home] }, 'invalid_addresses'],
  ['an address that is not an object', { ...person, addresses: ['1 Main St'] }, 'invalid_addresses'],
  ['address type absent', { ...person, addresses: [without('type')(home)] }, 'missing_addresses_type'],
  ['address type legal', withAddress({ type: 'legal' }), 'invalid_addresses_type'],
  ['address1 absent', { ...person, addresses: [without('address1')(home)] }, 'missing_address1'],
  ['address1 empty', withAddress({ address1: '' }), 'invalid_address1'],
  ['address1 of 256 characters', withAddress({ address1: long(256) }), 'invalid_address1'],
  ['address2 of 256 characters', withAddress({ address2: long(256) }), 'invalid_address2'],
  ['address2 a number', withAddress({ address2: 5 }), 'invalid_address2'],
  ['city absent', { ...person, addresses: [without('city')(home)] }, 'missing_city'],
  ['city empty', withAddress({ city: '' }), 'invalid_city'],
  ['city null', withAddress({ city: null }), 'invalid_city'],
  ['state absent', { ...person, addresses: [without('state')(home)] }, 'missing_state'],
  ['state in lower case', withAddress({ state: 'il' }), 'invalid_state'],
  ['state of 3 letters', withAddress({ state: 'ILL' }), 'invalid_state'],
  ['country absent', { ...person, addresses: [without('country')(home)] }, 'missing_country'],
  ['country other than US', withAddress({ country: 'CA' }), 'invalid_country'],
  ['zip5 absent', { ...person, addresses: [without('zip5')(home)] }, 'missing_zip5'],
  ['zip5 of 4 digits', withAddress({ zip5: '6270' }), 'invalid_zip5'],
  ['zip5 of ZIP+4', withAddress({ zip5: '62701-1234' }), 'invalid_zip5'],
  ['zip5 a number', withAddress({ zip5: 62701 }), 'invalid_zip5'],
  ['contacts not a list', { ...person, contacts: email }, 'invalid_contacts'],
  ['contacts empty', { ...person, contacts: [] }, 'invalid_contacts'],
  ['contacts holding three', { ...person, contacts: [email, phone, email] }, 'invalid_contacts'],
  ['a contact that is not an object', { ...person, contacts: ['ann@example.com'] }, 'invalid_contacts'],
  ['contact type absent', { ...person, contacts: [without('type')(email)] }, 'missing_contacts_type'],
  ['contact type fax', withContact({ type: 'fax' }), 'invalid_contacts_type'],
  ['contact value absent', { ...person, contacts: [without('value')(email)] }, 'missing_contacts_value'],
  ['contact value empty', withContact({ value: '' }), 'invalid_contacts_value'],
  ['contact value a number', withContact({ value: 5 }), 'invalid_contacts_value'],
  ['email without a domain', withContact({ value: 'ann@' }), 'invalid_contacts_value'],
  ['email of 256 characters', withContact({ value: `${long(244)}@example.com` }), 'invalid_contacts_value'],
  ['phone of 256 characters', withContact({ type: 'phone', value: '1'.repeat(256) }), 'invalid_contacts_value'],
  ['phone empty', withContact({ type: 'phone', value: '' }), 'invalid_contacts_value'],
  ['metadata a list', { ...person, metadata: ['a'] }, 'invalid_metadata'],
  ['metadata a string', { ...person, metadata: 'a=b' }, 'invalid_metadata'],
  [
    'metadata of 6 keys',
    { ...person, metadata: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } },
    'invalid_metadata',
  ],
  ['metadata key of 21 characters', { ...person, metadata: { [long(21)]: 'x' } }, 'invalid_metadata'],
  ['metadata key empty', { ...person, metadata: { '': 'x' } }, 'invalid_metadata'],
  ['metadata value of 51 characters', { ...person, metadata: { a: long(51) } }, 'invalid_metadata'],
  ['metadata value of 51 characters as JSON', { ...person, metadata: { a: [long(47)] } }, 'invalid_metadata'],
  ['metadata value a number beyond 2^53', { ...person, metadata: { a: 2 ** 53 } }, 'invalid_metadata'],
  ['metadata value a number under 1e-130', { ...person, metadata: { a: 1e-131 } }, 'invalid_metadata'],
  ['metadata value an infinite number', { ...person, metadata: { a: Number.POSITIVE_INFINITY } }, 'invalid_metadata'],
  ['metadata value with an empty key inside', { ...person, metadata: { a: { '': 'x' } } }, 'invalid_metadata'],
  ['metadata value nested 26 deep', { ...person, metadata: { a: nested(26) } }, 'invalid_metadata'],
  ['metadata value not JSON', { ...person, metadata: { a: undefined } }, 'invalid_metadata'],
  ['metadata with a key named constructor', { ...person, metadata: { constructor: 'x' } }, 'invalid_metadata'],
  ['metadata with a key named __proto__', { ...person, metadata: JSON.parse('{"__proto__":"x"}') }, 'invalid_metadata'],
  [
    'metadata value with a key named constructor inside',
    { ...person, metadata: { a: { constructor: 1 } } },
    'invalid_metadata',
  ],
  [
    'metadata value with a key named __proto__ inside',
    { ...person, metadata: { a: JSON.parse('{"__proto__":1}') } },
    'invalid_metadata',
  ],
  ['an unknown field', { ...person, nickname: 'A' }, 'unknown_field'],
  ['an unknown field in an address', withAddress({ county: 'Sangamon' }), 'unknown_field'],
  ['an unknown field in a contact', withContact({ primary: true }), 'unknown_field'],
  ['an unknown field beside invalid ones', { ...person, first_name: 1, ssn: '123456789' }, 'unknown_field'],
];

describe('createPersonBody: POST /persons, PUT /persons and PUT /persons/{id}', () => {
  it.each(BODY_RULES)('rejects %s: 400 %s', (_rule, body, code) => {
    const error = errorOf(createPersonBody, body);
    expect(error?.statusCode).toBe(400);
    expect(error?.code).toBe(code);
  });

  it('accepts a person with every field, normalised for the use case', () => {
    const body = {
      ...person,
      middle_name: 'Marie-Thérèse',
      date_of_birth: '1990-01-02',
      social_security_number: '123-45-6789',
      addresses: [{ ...home, address2: 'Apt 4' }],
      contacts: [email, { type: 'phone', value: '4155550123' }],
      metadata: { [long(20)]: long(50), b: '', c: 3, d: { e: [true, null] }, e: nested(25) },
    };
    expect(parseInput(createPersonBody, body, 'body')).toEqual({ ...body, social_security_number: '123456789' });
  });

  it('accepts names with diacritics, hyphens, dashes, periods, apostrophes and ASCII punctuation (Orum’s pattern)', () => {
    const names = ['Zoë', "O'Brien", 'O’Brien', 'Jean-Luc', 'Mary–Ann', 'St. John', 'Nguyễn Văn', 'Lee, Jr.', 'A & B'];
    for (const name of [...names, 'Ann!', 'Lee@', 'J#', '(Jo)', 'Łukasz', 'Œdipe', 'e\u0301']) {
      expect(codeOf(createPersonBody, { ...person, first_name: name, last_name: name }), name).toBe('accepted');
    }
  });

  it('differs from Verify’s name rule only as Orum’s patterns do: ASCII punctuation yes, digits no', () => {
    const verifyBody = { account_number: '1234567', routing_number: '021000021', type: 'status' };
    const verifyCode = (name: string) => codeOf(createVerifyAccountBody, { ...verifyBody, account_holder_name: name });
    const personCode = (name: string) => codeOf(createPersonBody, { ...person, first_name: name });
    for (const name of ['Zoë', 'Mary–Ann', 'Анна', ' - ', '', 'a\\b', 'a\tb', long(255), long(256), 'José María']) {
      expect(personCode(name) === 'accepted', name).toBe(verifyCode(name) === 'accepted');
    }
    for (const name of ['Lee, Jr.', 'A & B', 'Ann!']) expect(personCode(name), name).toBe('accepted');
    for (const name of ['R2 D2', 'Ann2', '3M']) expect(personCode(name), name).toBe('invalid_first_name');
  });

  it('takes two contacts of one type, as Orum', () => {
    const contacts = [email, { ...email, value: 'b@example.com' }];
    expect(parseInput(createPersonBody, { ...person, contacts }, 'body').contacts).toEqual(contacts);
  });

  it.each([
    ['123-45-6789', '123456789'],
    ['987654321', '987654321'],
  ])('accepts the SSN %s and hands the use case its 9 digits %s', (ssn, digits) => {
    const parsed = parseInput(createPersonBody, { ...person, social_security_number: ssn }, 'body');
    expect(parsed.social_security_number).toBe(digits);
  });

  it('takes any date that exists in 1900–2099: whether it can be a birth date is identification’s', () => {
    for (const date of ['1900-01-01', '2000-02-29', '2099-12-31', '1990-04-30']) {
      expect(parseInput(createPersonBody, { ...person, date_of_birth: date }, 'body').date_of_birth).toBe(date);
    }
  });

  it('keeps a phone exactly as sent, any string of up to 255 characters (Orum’s rule)', () => {
    const parse = (value: string) =>
      parseInput(createPersonBody, { ...person, contacts: [{ type: 'phone', value }] }, 'body').contacts?.[0].value;
    for (const value of ['+14155550123', '+442071838750', '4155550123', '(415) 555-0123', '555', '1'.repeat(255)]) {
      expect(parse(value)).toBe(value);
    }
  });

  it('treats null for an optional field as absent: the key is left out', () => {
    const body = {
      ...person,
      middle_name: null,
      date_of_birth: null,
      social_security_number: null,
      addresses: null,
      contacts: null,
      metadata: null,
    };
    expect(parseInput(createPersonBody, body, 'body')).toStrictEqual(person);
  });

  it('treats an empty middle_name and address2 (Orum allows them) as absent', () => {
    const parsed = parseInput(createPersonBody, { ...withAddress({ address2: '' }), middle_name: '' }, 'body');
    expect(parsed).not.toHaveProperty('middle_name');
    expect(parsed.addresses?.[0]).toStrictEqual(home);
    expect(parseInput(createPersonBody, withAddress({ address2: null }), 'body').addresses?.[0]).toStrictEqual(home);
  });

  it('lists every issue in details.issues while the code names the first', () => {
    const error = errorOf(createPersonBody, { ...withAddress({ city: '', zip5: 'x' }), first_name: '!' });
    expect(error?.code).toBe('invalid_first_name');
    expect(error?.details?.issues).toEqual([
      expect.objectContaining({ field: 'first_name', problem: 'invalid' }),
      expect.objectContaining({ field: 'addresses.0.city', problem: 'invalid' }),
      expect.objectContaining({ field: 'addresses.0.zip5', problem: 'invalid' }),
    ]);
  });
});

describe('the SSN never appears in an answer', () => {
  it.each(['12345678', '1234567890', '123-456789', '123 45 6789', '123-45-678x', '078-05-11200'])(
    'the error for the SSN %s names the rule, not the value',
    (ssn) => {
      const error = errorOf(createPersonBody, { ...person, social_security_number: ssn });
      expect(error?.code).toBe('invalid_social_security_number');
      const answer = JSON.stringify({ message: error?.message, details: error?.details });
      expect(answer).not.toContain(ssn);
      expect(answer).not.toContain(ssn.replace(/\D/g, ''));
      expect(answer).toContain('9 digits');
    },
  );

  it('a valid SSN beside another error does not appear either', () => {
    const error = errorOf(patchPersonBody, { social_security_number: '123-45-6789', first_name: null });
    expect(error?.code).toBe('invalid_first_name');
    expect(JSON.stringify({ message: error?.message, details: error?.details })).not.toMatch(/123-?45-?6789/);
  });
});

describe('patchPersonBody: PATCH /persons/{id}', () => {
  it('takes an empty body as no change', () => {
    expect(parseInput(patchPersonBody, {}, 'body')).toStrictEqual({});
  });

  it('leaves out what was not sent, so the use case keeps it', () => {
    expect(parseInput(patchPersonBody, { first_name: 'Anna' }, 'body')).toStrictEqual({ first_name: 'Anna' });
  });

  it.each(['customer_reference_id', 'first_name', 'last_name'])(
    'refuses null for the required %s: 400 invalid_<field>',
    (field) => {
      const error = errorOf(patchPersonBody, { [field]: null });
      expect(error?.statusCode).toBe(400);
      expect(error?.code).toBe(`invalid_${field}`);
      expect(error?.message).toBe(`${field} is required and cannot be removed`);
    },
  );

  it.each(['middle_name', 'date_of_birth', 'social_security_number', 'addresses', 'contacts', 'metadata'])(
    'keeps null for the optional %s, meaning remove it',
    (field) => {
      expect(parseInput(patchPersonBody, { [field]: null }, 'body')).toStrictEqual({ [field]: null });
    },
  );

  it('reads an empty addresses or contacts list (Orum allows one in PATCH) and an empty middle_name as remove', () => {
    expect(parseInput(patchPersonBody, { addresses: [], contacts: [], middle_name: '' }, 'body')).toStrictEqual({
      addresses: null,
      contacts: null,
      middle_name: null,
    });
  });

  it('passes lists and metadata on as sent, the SSN as 9 digits and an empty address2 as null (remove it)', () => {
    const body = {
      social_security_number: '123-45-6789',
      addresses: [{ ...home, address2: '' }],
      contacts: [{ type: 'phone', value: '4155550123' }],
      metadata: { plan: 'gold', seats: 3 },
    };
    expect(parseInput(patchPersonBody, body, 'body')).toStrictEqual({
      ...body,
      social_security_number: '123456789',
      addresses: [{ ...home, address2: null }],
    });
  });

  it('takes an address of `type` and the fields that change, and contacts without `value` (Orum’s PATCH)', () => {
    const body = {
      addresses: [{ type: 'home', zip5: '62702' }],
      contacts: [{ type: 'email' }, { type: 'phone' }],
    };
    expect(parseInput(patchPersonBody, body, 'body')).toStrictEqual(body);
  });

  it.each([
    ['a first_name with a digit', { first_name: 'Ann2' }, 'invalid_first_name'],
    ['an empty customer_reference_id', { customer_reference_id: '' }, 'invalid_customer_reference_id'],
    ['a malformed date_of_birth', { date_of_birth: '02/01/1990' }, 'invalid_date_of_birth'],
    ['a malformed SSN', { social_security_number: '12-345-6789' }, 'invalid_social_security_number'],
    ['two addresses', { addresses: [home, home] }, 'invalid_addresses'],
    ['an address without type', { addresses: [{ zip5: '62701' }] }, 'missing_addresses_type'],
    ['an address with a null city', { addresses: [{ type: 'home', city: null }] }, 'invalid_city'],
    ['an address in Canada', { addresses: [{ type: 'home', country: 'CA' }] }, 'invalid_country'],
    ['three contacts', { contacts: [email, phone, email] }, 'invalid_contacts'],
    ['a contact without type', { contacts: [{ value: 'a@example.com' }] }, 'missing_contacts_type'],
    ['a malformed email', { contacts: [{ type: 'email', value: 'ann@' }] }, 'invalid_contacts_value'],
    ['an empty contact value', { contacts: [{ type: 'phone', value: '' }] }, 'invalid_contacts_value'],
    ['metadata of 6 keys', { metadata: { a: '', b: '', c: '', d: '', e: '', f: '' } }, 'invalid_metadata'],
    ['metadata with a key named constructor', { metadata: { constructor: 'x' } }, 'invalid_metadata'],
    ['an unknown field', { status: 'verified' }, 'unknown_field'],
    ['an unknown field beside a null name', { first_name: null, id: PERSON_ID }, 'unknown_field'],
  ])('applies the create rules to what is sent: %s answers 400 %s', (_rule, body, code) => {
    expect(codeOf(patchPersonBody, body)).toBe(code);
  });
});

describe('personIdParams: the {id} of /persons/{id}', () => {
  it('accepts a UUID', () => {
    expect(parseInput(personIdParams, { id: PERSON_ID }, 'path')).toEqual({ id: PERSON_ID });
  });

  it.each(['not-a-uuid', '', '7d3e2b8a4c1f4e6a9b0d2f5a8c1e3d47', `${PERSON_ID}#x`, 'PERSON#7d3e2b8a'])(
    'answers the malformed id %j as Orum does: 404 unknown_id_person',
    (id) => {
      const error = errorOf(personIdParams, { id }, 'path');
      expect(error?.statusCode).toBe(404);
      expect(error?.code).toBe('unknown_id_person');
      expect(error?.message).toBe('no person has this id');
    },
  );
});

describe('listPersonsQuery: GET /persons', () => {
  it('pages from index 0 by 100 when not told otherwise', () => {
    const query = parseInput(listPersonsQuery, {}, 'query');
    // `index` stays absent when not given, so a cursor beside it is told apart; absent is page 0.
    expect(query).toStrictEqual({ size: 100 });
    expect(pageRequestOf(query)).toStrictEqual({ page: { skip: 0, take: 100 } });
  });

  it('reads every filter', () => {
    const query = {
      index: '2',
      size: '0',
      id: PERSON_ID,
      customer_reference_id: 'cust-1',
      status: ['created,verified', 'closed'],
      start_time: '2026-01-31T07:00:00-05:00',
      end_time: '2026-02-01T00:00:00Z',
      first_name: 'ann',
      last_name: 'Lee',
      account_number: '0010-1044595',
    };
    expect(parseInput(listPersonsQuery, query, 'query')).toStrictEqual({
      ...query,
      index: 2,
      size: 0,
      status: ['created', 'verified', 'closed'],
      start_time: '2026-01-31T12:00:00.000Z',
      end_time: '2026-02-01T00:00:00.000Z',
    });
  });

  it.each([
    [{ size: '-1' }, 'invalid_size'],
    [{ size: '501' }, 'invalid_size'],
    [{ size: '1.5' }, 'invalid_size'],
    [{ size: ['1', '2'] }, 'invalid_size'],
    [{ index: 'first' }, 'invalid_index'],
    [{ index: '10000001' }, 'invalid_index'],
    [{ index: ['0', '1'] }, 'invalid_index'],
    [{ status: 'pending' }, 'invalid_person_status'],
    [{ status: 'created,pending' }, 'invalid_person_status'],
    [{ status: ['verified', 'Verified'] }, 'invalid_person_status'],
    [{ start_time: '2026-01-31' }, 'invalid_start_time'],
    [{ start_time: ['2026-01-31T00:00:00Z', '2026-02-01T00:00:00Z'] }, 'invalid_start_time'],
    [{ end_time: 'yesterday' }, 'invalid_end_time'],
    [{ start_time: '2026-01-31T12:00:00Z', end_time: '2026-01-31T12:00:00Z' }, 'invalid_end_time'],
    [{ start_time: '2026-01-31T12:00:00Z', end_time: '2026-01-31T06:59:59-05:00' }, 'invalid_end_time'],
    [{ customer_reference_id: '' }, 'invalid_customer_reference_id'],
    [{ customer_reference_id: ['a', 'b'] }, 'invalid_customer_reference_id'],
    [{ first_name: '' }, 'invalid_first_name'],
    [{ first_name: long(256) }, 'invalid_first_name'],
    [{ last_name: ['Lee', 'Li'] }, 'invalid_last_name'],
    [{ id: 'not-a-uuid' }, 'invalid_orum_id'],
    [{ id: [PERSON_ID, PERSON_ID] }, 'invalid_orum_id'],
    [{ account_number: '123' }, 'invalid_account_number'],
    [{ account_number: '123456789012345678' }, 'invalid_account_number'],
    [{ account_number: '0010--1044595' }, 'invalid_account_number'],
    [{ account_number: '-0010' }, 'invalid_account_number'],
    [{ account_number: ['1234567', '7654321'] }, 'invalid_account_number'],
    [{ account_number: '1234567', ssn: '123456789' }, 'unknown_parameter'],
    [{ page: '1', size: 'x' }, 'unknown_parameter'],
  ])('rejects %j: 400 %s', (query, code) => {
    const error = errorOf(listPersonsQuery, query, 'query');
    expect(error?.statusCode).toBe(400);
    expect(error?.code).toBe(code);
  });
});

describe('output types tell the use case what was sent', () => {
  it('create has no nulls; PATCH keeps null (remove) apart from absent (unchanged)', () => {
    expectTypeOf<CreatePersonBody['middle_name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CreatePersonBody['social_security_number']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PatchPersonBody['first_name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PatchPersonBody['middle_name']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<PatchPersonBody['metadata']>().toEqualTypeOf<Record<string, MetadataValue> | null | undefined>();
    expectTypeOf<ListPersonsQuery['status']>().toEqualTypeOf<
      ('created' | 'verified' | 'rejected' | 'restricted' | 'closed')[] | undefined
    >();
  });

  it('the use cases take exactly the body types, and the presenter builds exactly the response schema', () => {
    expectTypeOf<Parameters<typeof createPerson>[1]>().toEqualTypeOf<CreatePersonBody>();
    expectTypeOf<Parameters<typeof replacePerson>[2]>().toEqualTypeOf<CreatePersonBody>();
    expectTypeOf<Parameters<typeof patchPerson>[2]>().toEqualTypeOf<PatchPersonBody>();
    expectTypeOf<ReturnType<typeof presentPerson>>().toEqualTypeOf<z.output<typeof personObject>>();
  });
});
