import { describe, expect, it } from 'vitest';
import { dateAgreement, ofacDatesOfBirth, ofacListedDate } from '#domain/listed-dates';

describe('dates of birth as OFAC writes them', () => {
  it.each([
    ['10 Dec 1948', { year: 1948, toYear: 1948, day: '1948-12-10' }],
    ['1 Mar 1961', { year: 1961, toYear: 1961, day: '1961-03-01' }],
    ['30 Nov 1955.', { year: 1955, toYear: 1955, day: '1955-11-30' }],
    ['1946', { year: 1946, toYear: 1946 }],
    ['Sep 1938', { year: 1938, toYear: 1938 }],
    ['circa 1951', { year: 1951, toYear: 1951, circa: true }],
    ['circa 07 Jul 1966', { year: 1966, toYear: 1966, circa: true }],
    ['1951 to 1953', { year: 1951, toYear: 1953 }],
    ['01 Jan 1961 to 31 Dec 1962', { year: 1961, toYear: 1962 }],
    ['circa 1979-1982', { year: 1979, toYear: 1982, circa: true }],
  ])('reads "%s"', (text, expected) => {
    expect(ofacListedDate(text)).toEqual(expected);
  });

  it('reads every DOB of a remarks field and leaves out what is no date', () => {
    expect(ofacDatesOfBirth('DOB 01 Jan 1970; alt. DOB 02 Feb 1971; DOB unknown; POB Nowhere.')).toEqual([
      { year: 1970, toYear: 1970, day: '1970-01-01' },
      { year: 1971, toYear: 1971, day: '1971-02-02' },
    ]);
    expect(ofacDatesOfBirth('no dates here')).toEqual([]);
  });
});

describe('how a person’s date of birth agrees with a listing’s', () => {
  const listed = [{ year: 1961, toYear: 1961, day: '1961-03-12' }];
  it('exact: the listed day; year: the listed year but another day, or a listed year or span', () => {
    expect(dateAgreement('1961-03-12', listed)).toBe('exact');
    expect(dateAgreement('1961-12-03', listed)).toBe('year');
    expect(dateAgreement('1952-06-01', [{ year: 1951, toYear: 1953 }])).toBe('year');
  });
  it('circa allows a year either side, no more', () => {
    expect(dateAgreement('1950-06-01', [{ year: 1951, toYear: 1951, circa: true }])).toBe('year');
    expect(dateAgreement('1949-06-01', [{ year: 1951, toYear: 1951, circa: true }])).toBe('conflict');
  });
  it('conflict: no listed date allows the year; unknown: a side has no date', () => {
    expect(dateAgreement('1962-03-12', listed)).toBe('conflict');
    expect(dateAgreement(undefined, listed)).toBe('unknown');
    expect(dateAgreement('1962-03-12', [])).toBe('unknown');
  });
});
