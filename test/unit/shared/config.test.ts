import { afterEach, describe, expect, it } from 'vitest';
import { ENV, screeningListsMaxDropPercent, screeningListsSource } from '#shared/config';

afterEach(() => {
  for (const name of [ENV.screeningListsUrl, ENV.screeningListsDir, ENV.screeningListsMaxDropPercent]) {
    delete process.env[name];
  }
});

describe('where the refresh reads the screening lists', () => {
  it('is the folder SCREENING_LISTS_DIR when set, else SCREENING_LISTS_URL, else nowhere', () => {
    expect(screeningListsSource()).toBeUndefined();
    process.env[ENV.screeningListsUrl] = 'https://lists.example.com/ofac/';
    expect(screeningListsSource()).toEqual({ url: 'https://lists.example.com/ofac/' });
    process.env[ENV.screeningListsDir] = 'data/screening';
    expect(screeningListsSource()).toEqual({ dir: 'data/screening' });
  });

  it.each([['http://lists.example.com/'], ['ftp://127.0.0.1/'], ['lists']])('refuses the URL %j', (url) => {
    process.env[ENV.screeningListsUrl] = url;
    expect(() => screeningListsSource()).toThrow(/SCREENING_LISTS_URL must be an https:\/\/ URL/);
  });

  it('takes plain HTTP to a loopback address (a test’s stand-in for OFAC)', () => {
    process.env[ENV.screeningListsUrl] = 'http://127.0.0.1:8080/';
    expect(screeningListsSource()).toEqual({ url: 'http://127.0.0.1:8080/' });
  });
});

describe('how much one refresh may take off a list', () => {
  it('is SCREENING_LISTS_MAX_DROP_PERCENT, or the default when unset', () => {
    expect(screeningListsMaxDropPercent()).toBeUndefined();
    process.env[ENV.screeningListsMaxDropPercent] = '2.5';
    expect(screeningListsMaxDropPercent()).toBe(2.5);
  });

  it.each([['0'], ['101'], ['five']])('refuses %j', (value) => {
    process.env[ENV.screeningListsMaxDropPercent] = value;
    expect(() => screeningListsMaxDropPercent()).toThrow(/above 0, at most 100/);
  });
});
