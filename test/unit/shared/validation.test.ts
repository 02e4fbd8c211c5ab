import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createVerifyAccountBody } from '#functions/verify-accounts/request-schemas';
import { AppError, NotFoundError, ValidationError } from '#shared/errors';
import { parseInput, withFieldCodes } from '#shared/validation';

/** The error `parseInput` throws, or a failure when it accepts the input. */
function rejection(schema: z.core.$ZodType, input: unknown, source: 'body' | 'query' | 'path' = 'body'): AppError {
  try {
    parseInput(schema, input, source);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the input to be rejected');
}

const address = z.strictObject({
  city: z.string({ error: 'must be a string' }),
  country: z.enum(['US'], { error: 'must be US' }),
  lines: z.optional(z.array(z.string({ error: 'must be a string' }))),
});
const shape = { name: z.string({ error: 'must be a string' }), addresses: z.optional(z.array(address)) };
const plain = z.strictObject(shape, { error: 'must be an object' });
const coded = withFieldCodes(z.strictObject(shape), {
  'addresses.*.city': 'city',
  'addresses.*.country': 'country',
  'addresses.*': 'address',
  'addresses.*.lines': 'lines',
});
const home = { city: 'Springfield', country: 'US' };

describe('parseInput: codes name the first failing top-level field', () => {
  it('answers the parsed value when the input is valid', () => {
    expect(parseInput(plain, { name: 'a', addresses: [home] }, 'body')).toEqual({ name: 'a', addresses: [home] });
  });

  it('names an absent required field missing_<field>: 400 missing_name', () => {
    const error = rejection(plain, {});
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ statusCode: 400, code: 'missing_name', message: 'name is required' });
  });

  it('names a present field that breaks its rule invalid_<field>: 400 invalid_name', () => {
    expect(rejection(plain, { name: null })).toMatchObject({ code: 'invalid_name', message: 'name must be a string' });
  });

  it('names the top-level parent of a nested field when the schema gives it no code: 400 invalid_addresses', () => {
    const error = rejection(plain, { name: 'a', addresses: [{ country: 'US' }] });
    expect(error).toMatchObject({
      code: 'invalid_addresses',
      message: 'addresses is invalid: addresses.0.city is required',
    });
  });

  it('names Verify’s nested person fields by Orum’s codes: 400 missing_first_name', () => {
    const body = {
      account_number: '1234567',
      routing_number: '021000021',
      account_holder_name: 'Ann Lee',
      type: 'status_ownership',
      person: { last_name: 'Lee' },
    };
    expect(rejection(createVerifyAccountBody, body)).toMatchObject({
      code: 'missing_first_name',
      message: 'person.first_name is required',
      details: { issues: [{ field: 'person.first_name', problem: 'missing', message: 'is required' }] },
    });
  });

  it('names the input itself when it is not an object: 400 invalid_body', () => {
    expect(rejection(plain, 'text')).toMatchObject({ code: 'invalid_body', message: 'body must be an object' });
  });
});

describe('withFieldCodes: nested fields answer codes of their own', () => {
  it('names an absent nested field by its own code: 400 missing_city', () => {
    const error = rejection(coded, { name: 'a', addresses: [{ country: 'US' }] });
    expect(error).toMatchObject({ code: 'missing_city', message: 'addresses.0.city is required' });
  });

  it('names a nested field that breaks its rule by its own code, at any index: 400 invalid_city', () => {
    const error = rejection(coded, { name: 'a', addresses: [home, { ...home, city: 7 }] });
    expect(error).toMatchObject({ code: 'invalid_city', message: 'addresses.1.city must be a string' });
  });

  it('names an absent enum field missing, not invalid: 400 missing_country', () => {
    expect(rejection(coded, { name: 'a', addresses: [{ city: 'x' }] })).toMatchObject({ code: 'missing_country' });
    expect(rejection(coded, { name: 'a', addresses: [{ ...home, country: 'CA' }] })).toMatchObject({
      code: 'invalid_country',
      message: 'addresses.0.country must be US',
    });
  });

  it('answers invalid_<name> for an issue deeper inside a coded field: 400 invalid_lines', () => {
    const error = rejection(coded, { name: 'a', addresses: [{ ...home, lines: ['x', 2] }] });
    expect(error).toMatchObject({
      code: 'invalid_lines',
      message: 'addresses.0.lines is invalid: addresses.0.lines.1 must be a string',
    });
  });

  it('lets the longest matching pattern win, and a shorter one cover the rest: 400 invalid_address', () => {
    expect(rejection(coded, { name: 'a', addresses: ['x'] })).toMatchObject({ code: 'invalid_address' });
  });

  it('leaves the list itself and fields without a pattern to the top-level code: 400 invalid_addresses', () => {
    expect(rejection(coded, { name: 'a', addresses: 'x' })).toMatchObject({ code: 'invalid_addresses' });
    expect(rejection(coded, {})).toMatchObject({ code: 'missing_name' });
  });

  it('renames a top-level field: 400 invalid_person_status for status', () => {
    const query = withFieldCodes(z.strictObject({ status: z.optional(z.array(z.enum(['a']))) }), {
      status: 'person_status',
    });
    expect(rejection(query, { status: ['b'] }, 'query')).toMatchObject({ code: 'invalid_person_status' });
  });

  it('reports an enum value inside a list as invalid, never missing', () => {
    const query = z.strictObject({ status: z.array(z.enum(['a'])) });
    const error = rejection(query, { status: ['a', 'b'] }, 'query');
    expect(error).toMatchObject({ code: 'invalid_status', details: { issues: [{ problem: 'invalid' }] } });
  });

  it('keeps every issue in details.issues, in the order found', () => {
    const error = rejection(coded, { addresses: [{ city: 1 }] });
    expect(error.code).toBe('missing_name');
    expect(error.details?.issues).toEqual([
      { field: 'name', problem: 'missing', message: 'is required' },
      { field: 'addresses.0.city', problem: 'invalid', message: 'must be a string' },
      { field: 'addresses.0.country', problem: 'missing', message: 'is required' },
    ]);
  });

  it('lets an unknown field win over every coded field: 400 unknown_field', () => {
    const error = rejection(coded, { name: 1, addresses: [{ ...home, city: 1, extra: true }] });
    expect(error).toMatchObject({ code: 'unknown_field', message: "unknown field 'addresses.0.extra'" });
  });

  it('answers unknown_parameter for an unknown query parameter', () => {
    const query = withFieldCodes(z.strictObject({ size: z.optional(z.string()) }), { size: 'page_size' });
    expect(rejection(query, { sise: '1' }, 'query')).toMatchObject({
      code: 'unknown_parameter',
      message: "unknown query parameter 'sise'",
    });
  });

  it('applies the codes to the schema they were registered on only', () => {
    const error = rejection(plain, { name: 'a', addresses: [{ country: 'US' }] });
    expect(error.code).toBe('invalid_addresses');
  });
});

describe('refinements that name their own code', () => {
  const withCode = (params: Record<string, unknown>) =>
    z.object({ id: z.string().check(z.refine((v) => v.length === 3, { message: 'must be 3 characters', params })) });

  it('answers the code given in params.error_code: 400', () => {
    const error = rejection(withCode({ error_code: 'invalid_thing_id' }), { id: 'x' }, 'path');
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ statusCode: 400, code: 'invalid_thing_id', message: 'must be 3 characters' });
  });

  it('answers 404 with the code when params.status is 404', () => {
    const error = rejection(withCode({ error_code: 'unknown_id_thing', status: 404 }), { id: 'x' }, 'path');
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ statusCode: 404, code: 'unknown_id_thing', message: 'must be 3 characters' });
  });

  it('ignores params.status without an error_code and answers the field’s code: 400 invalid_id', () => {
    const error = rejection(withCode({ status: 404 }), { id: 'x' }, 'path');
    expect(error).toMatchObject({ statusCode: 400, code: 'invalid_id' });
  });
});
