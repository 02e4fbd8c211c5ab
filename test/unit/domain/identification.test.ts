import { describe, expect, it } from 'vitest';
import {
  addressReasons,
  ageOn,
  checkIdentityData,
  completenessReasons,
  dateOfBirthReasons,
  isAcceptableName,
  isPoBox,
  isValidSsn,
  nameReasons,
  normalizeSsn,
  parseCalendarDate,
  ssnReasons,
} from '#domain/identification';
import type { IdentityData } from '#domain/person';

const NOW = new Date('2025-06-15T12:00:00Z');

const homeAddress = {
  type: 'home',
  address1: '1 Main Street',
  city: 'Springfield',
  state: 'IL',
  country: 'US',
  zip5: '62701',
} as const;

const complete: IdentityData = {
  first_name: 'Jane',
  last_name: 'Doe',
  date_of_birth: '1990-04-01',
  ssn: '123456789',
  address: homeAddress,
};

describe('SSN input forms', () => {
  it.each([
    ['123-45-6789', '123456789'],
    ['123456789', '123456789'],
  ])('normalizes %j to its 9 digits', (input, digits) => {
    expect(normalizeSsn(input)).toBe(digits);
  });

  it.each(['123 45 6789', '12-345-6789', '123-456789', ' 123456789', '12345678', '1234567890', '12345678a', ''])(
    'refuses %j, which is neither 123-45-6789 nor 123456789',
    (input) => {
      expect(normalizeSsn(input)).toBeUndefined();
    },
  );
});

describe('SSN by SSA rules: invalid_ssn', () => {
  it.each(['123456789', '665123456', '667123456', '001010001', '899991234', '123450001'])(
    'accepts the issuable number %s',
    (ssn) => {
      expect(isValidSsn(ssn)).toBe(true);
    },
  );

  it.each([
    ['000123456', 'area 000'],
    ['666123456', 'area 666'],
    ['123006789', 'group 00'],
    ['123450000', 'serial 0000'],
    ['900500000', 'an ITIN with serial 0000'],
    ['12345678', 'eight digits'],
    ['12345678a', 'a letter'],
  ])('rejects %s (%s)', (ssn) => {
    expect(isValidSsn(ssn)).toBe(false);
  });

  it.each(['50', '65', '70', '88', '90', '92', '94', '99'])(
    'accepts an area 9xx number as an ITIN with group %s (range bounds)',
    (group) => {
      expect(isValidSsn(`912${group}1234`)).toBe(true);
    },
  );

  it.each(['00', '01', '49', '66', '69', '89', '93'])('rejects an area 9xx number with non-ITIN group %s', (group) => {
    expect(isValidSsn(`912${group}1234`)).toBe(false);
  });

  it('reports invalid_ssn for a bad number and nothing for a missing one (completeness says that)', () => {
    expect(ssnReasons('666123456')).toEqual(['invalid_ssn']);
    expect(ssnReasons('123456789')).toEqual([]);
    expect(ssnReasons(undefined)).toEqual([]);
    expect(ssnReasons('')).toEqual([]);
  });
});

describe('date of birth: invalid_dob and ineligible_age', () => {
  it.each(['2023-02-30', '2023-02-29', '1990-13-01', '1990-00-10', '1990-04-31', '1990-04-00', '1990-4-1', '19900401'])(
    'rejects %j, which is not a real calendar date: invalid_dob',
    (dob) => {
      expect(parseCalendarDate(dob)).toBeUndefined();
      expect(dateOfBirthReasons(dob, NOW)).toEqual(['invalid_dob']);
    },
  );

  it.each(['2000-02-29', '1996-02-29', '1990-12-31', '1990-01-01'])('accepts the real date %s', (dob) => {
    expect(parseCalendarDate(dob)).toBeDefined();
  });

  it('rejects 1900-02-29: centuries are leap years only when divisible by 400', () => {
    expect(parseCalendarDate('1900-02-29')).toBeUndefined();
  });

  it('rejects a date of birth after today (UTC): invalid_dob', () => {
    expect(dateOfBirthReasons('2025-06-16', NOW)).toEqual(['invalid_dob']);
  });

  it('judges "today" on the UTC date, not the local one', () => {
    const lateEveningInAmericaIsTomorrowInUtc = new Date('2025-06-16T02:00:00Z');
    expect(dateOfBirthReasons('2007-06-16', lateEveningInAmericaIsTomorrowInUtc)).toEqual([]);
    expect(dateOfBirthReasons('2007-06-16', new Date('2025-06-15T23:59:59Z'))).toEqual(['ineligible_age']);
  });

  it('treats someone born today as under 18, not as born in the future', () => {
    expect(dateOfBirthReasons('2025-06-15', NOW)).toEqual(['ineligible_age']);
  });

  it('turns a person 18 on the birthday itself: the day before is ineligible_age', () => {
    expect(dateOfBirthReasons('2007-06-15', NOW)).toEqual([]);
    expect(dateOfBirthReasons('2007-06-16', NOW)).toEqual(['ineligible_age']);
  });

  it('turns someone born on Feb 29 eighteen on Mar 1 in a non-leap year, not Feb 28', () => {
    expect(dateOfBirthReasons('2004-02-29', new Date('2022-02-28T12:00:00Z'))).toEqual(['ineligible_age']);
    expect(dateOfBirthReasons('2004-02-29', new Date('2022-03-01T00:00:00Z'))).toEqual([]);
  });

  it('counts a Feb 29 birthday on Feb 29 itself in leap years, and on Mar 1 in the others', () => {
    const leapling = { year: 2004, month: 2, day: 29 };
    expect(ageOn(leapling, { year: 2020, month: 2, day: 28 })).toBe(15);
    expect(ageOn(leapling, { year: 2020, month: 2, day: 29 })).toBe(16);
    expect(ageOn(leapling, { year: 2021, month: 2, day: 28 })).toBe(16);
    expect(ageOn(leapling, { year: 2021, month: 3, day: 1 })).toBe(17);
  });

  it('rejects an age of 100 or more on the 100th birthday: invalid_dob; 99 is accepted', () => {
    expect(dateOfBirthReasons('1925-06-15', NOW)).toEqual(['invalid_dob']);
    expect(dateOfBirthReasons('1925-06-16', NOW)).toEqual([]);
    expect(dateOfBirthReasons('1800-01-01', NOW)).toEqual(['invalid_dob']);
  });

  it('reports nothing for a missing date of birth (completeness says that)', () => {
    expect(dateOfBirthReasons(undefined, NOW)).toEqual([]);
    expect(dateOfBirthReasons(' ', NOW)).toEqual([]);
  });
});

describe('P.O. boxes: invalid_address_type', () => {
  it.each([
    'PO Box 123',
    'P.O. Box 123',
    'p.o. box 123',
    'P. O. Box 123',
    'P O Box 123',
    'P.O.Box 123',
    'POBox 123',
    'pobox123',
    'PO-Box 12',
    'PO Box #12',
    'PO Box No. 12',
    'POB 123',
    'P.O.B. 123',
    'Post Office Box 123',
    'POST OFFICE BOX 7',
    'PO Bin 5',
    'Postal Box 5',
    'Box 123',
    'box #123',
    'PO Box',
    'Suite 5, PO Box 77',
  ])('recognises %j as a P.O. box', (line) => {
    expect(isPoBox(line)).toBe(true);
  });

  it.each([
    '12 Boxwood Lane',
    '1 Pobox Street',
    '5 Post Office Box Road',
    '9 Box Elder Court',
    'RR 2 Box 5',
    '10 Hippo Box Way',
    '1 Main Street',
    'Apt 4B',
    '77 Poblano Drive',
    'Box Hill Road 3',
  ])('does not take the street address %j for a P.O. box', (line) => {
    expect(isPoBox(line)).toBe(false);
  });

  it('rejects a P.O. box in address1 or in address2', () => {
    expect(addressReasons({ ...homeAddress, address1: 'PO Box 5' })).toEqual(['invalid_address_type']);
    expect(addressReasons({ ...homeAddress, address2: 'P.O. Box 5' })).toEqual(['invalid_address_type']);
    expect(addressReasons(homeAddress)).toEqual([]);
  });

  it('rejects an address that is not of type home: the contract supports home only', () => {
    expect(addressReasons({ ...homeAddress, type: 'legal' })).toEqual(['invalid_address_type']);
  });
});

describe('address completeness: incomplete_address', () => {
  it.each(['address1', 'city', 'state', 'zip5'] as const)('reports incomplete_address when %s is blank', (field) => {
    expect(addressReasons({ ...homeAddress, [field]: '' })).toEqual(['incomplete_address']);
    expect(addressReasons({ ...homeAddress, [field]: '   ' })).toEqual(['incomplete_address']);
  });

  it('does not require address2', () => {
    expect(addressReasons({ ...homeAddress, address2: '' })).toEqual([]);
  });
});

describe('names: invalid_name', () => {
  it.each([
    'Jane',
    'José',
    'Mary-Jane',
    "O'Neil",
    'Zoë',
    'J',
    'J.',
    'Oo',
    'Ee',
    'Na',
    'Testa',
    'Nonesuch',
    'Van der Berg',
  ])('accepts %j as a first name', (name) => {
    expect(isAcceptableName(name, 'first')).toBe(true);
  });

  it.each(['Doe', "O'Neil", 'Núñez-Ortiz', 'Ng', 'Oo', 'Na', 'Smith III', 'Le'])(
    'accepts %j as a last name',
    (name) => {
      expect(isAcceptableName(name, 'last')).toBe(true);
    },
  );

  it.each([
    ['', 'no letters'],
    ['---', 'no letters'],
    ['.', 'no letters'],
    ['aaaa', 'one letter repeated'],
    ['xxx', 'one letter repeated'],
    ['X X X', 'one letter repeated'],
    ['John3', 'a digit'],
    ['Smith 3rd', 'a digit'],
    ['test', 'a placeholder'],
    ['TEST', 'a placeholder'],
    ['asdf', 'a keyboard run'],
    ['Qwerty', 'a keyboard run'],
    ['Unknown', 'a placeholder'],
    ['N/A', 'a placeholder'],
    ['n / a', 'a placeholder'],
    ['none', 'a placeholder'],
    ['NULL', 'a placeholder'],
    ['undefined', 'a serialised missing value'],
    ['FNU', 'first name unknown'],
    ['lnu', 'last name unknown'],
  ])('rejects %j (%s) as a first or last name', (name) => {
    expect(isAcceptableName(name, 'first')).toBe(false);
    expect(isAcceptableName(name, 'last')).toBe(false);
  });

  it('allows a single-letter first name (an initial) but not a single-letter last name', () => {
    expect(isAcceptableName('J', 'first')).toBe(true);
    expect(isAcceptableName('S', 'last')).toBe(false);
    expect(isAcceptableName('S.', 'last')).toBe(false);
  });

  it('reports one invalid_name whichever of first and last name fails', () => {
    expect(nameReasons({ first_name: 'test', last_name: 'Doe' })).toEqual(['invalid_name']);
    expect(nameReasons({ first_name: 'Jane', last_name: 'xxx' })).toEqual(['invalid_name']);
    expect(nameReasons({ first_name: 'null', last_name: 'null' })).toEqual(['invalid_name']);
    expect(nameReasons({ first_name: 'Jane', last_name: 'Doe' })).toEqual([]);
  });
});

describe('completeness for identification: incomplete_ssn, incomplete_dob, incomplete_address', () => {
  it('reports every missing element that verified needs', () => {
    expect(completenessReasons({})).toEqual(['incomplete_ssn', 'incomplete_dob', 'incomplete_address']);
  });

  it('treats blank strings as missing', () => {
    expect(completenessReasons({ ssn: '', date_of_birth: ' ', address: homeAddress })).toEqual([
      'incomplete_ssn',
      'incomplete_dob',
    ]);
  });

  it('reports nothing when SSN, date of birth and address are all given', () => {
    expect(completenessReasons(complete)).toEqual([]);
  });
});

describe('checkIdentityData', () => {
  it('passes a complete, valid adult with a home street address', () => {
    expect(checkIdentityData(complete, NOW)).toEqual([]);
  });

  it('reports only the missing SSN when the rest is fine', () => {
    const { ssn: _ssn, ...withoutSsn } = complete;
    expect(checkIdentityData(withoutSsn, NOW)).toEqual(['incomplete_ssn']);
  });

  it('lists every failure once, in the order of the contract reason codes', () => {
    const everythingWrong: IdentityData = {
      first_name: 'asdf',
      last_name: '1234',
      date_of_birth: '2015-01-01',
      ssn: '000000000',
      address: { ...homeAddress, address1: 'PO Box 9', city: '' },
    };
    expect(checkIdentityData(everythingWrong, NOW)).toEqual([
      'incomplete_address',
      'ineligible_age',
      'invalid_address_type',
      'invalid_name',
      'invalid_ssn',
    ]);
  });

  it('reports incomplete_address once when the address is both missing parts and checked for completeness', () => {
    const reasons = checkIdentityData({ ...complete, address: { ...homeAddress, zip5: '' } }, NOW);
    expect(reasons).toEqual(['incomplete_address']);
  });

  it('reports a names-only person as missing SSN, date of birth and address', () => {
    expect(checkIdentityData({ first_name: 'Jane', last_name: 'Doe' }, NOW)).toEqual([
      'incomplete_address',
      'incomplete_dob',
      'incomplete_ssn',
    ]);
  });

  it('reports invalid_dob, never ineligible_age too, for a date in the future', () => {
    expect(checkIdentityData({ ...complete, date_of_birth: '2030-01-01' }, NOW)).toEqual(['invalid_dob']);
  });
});
