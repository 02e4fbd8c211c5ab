import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { CONSUMERS } from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import { type BuildOptions, buildApp, resourcesOf, synthTemplate } from '../harness';

const listsRefresh = CONSUMERS.find((c) => c.id === 'ListsRefresh')!;
const OFAC = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';

/** Each function (by description) that has the variable, with its value. */
const functionsWith = (options: BuildOptions, variable: string) =>
  Object.fromEntries(
    Object.values(resourcesOf(synthTemplate(options), 'AWS::Lambda::Function'))
      .filter((f) => f.Properties?.Environment?.Variables?.[variable] !== undefined)
      .map((f) => [f.Properties?.Description, f.Properties?.Environment.Variables[variable]]),
  );

describe('the daily refresh of the screening lists', () => {
  it('runs at 04:00 UTC, before the daily re-screen (04:30) screens against what it wrote', () => {
    const rescreen = CONSUMERS.find((c) => c.id === 'DailyRescreen')!;
    expect(listsRefresh.source).toMatchObject({ kind: 'schedule', cron: { minute: '0', hour: '4' } });
    expect(rescreen.source).toMatchObject({ kind: 'schedule', cron: { minute: '30', hour: '4' } });
  });
});

describe('context screeningListsUrl: where the refresh downloads OFAC’s files', () => {
  const url = (value: unknown) =>
    functionsWith({ context: { screeningListsUrl: value } }, CONFIG_ENV.screeningListsUrl);

  it('defaults to OFAC’s Sanctions List Service, and reaches only the refresh, as SCREENING_LISTS_URL', () => {
    expect(url(undefined)).toEqual({ [consumerDescription(listsRefresh)]: OFAC });
  });

  it('names a mirror instead', () => {
    expect(url('https://mirror.example.com/ofac/')).toEqual({
      [consumerDescription(listsRefresh)]: 'https://mirror.example.com/ofac/',
    });
  });

  it.each([['http://mirror.example.com/ofac/'], ['not a url'], [42]])('refuses %j: HTTPS only', (value) => {
    expect(() => buildApp({ context: { screeningListsUrl: value } })).toThrow(
      /context "screeningListsUrl" must be an https:\/\/ URL/,
    );
  });
});

describe('context screeningListsMaxDropPercent: how much one refresh may take off a list', () => {
  const percent = (value: unknown) =>
    functionsWith({ context: { screeningListsMaxDropPercent: value } }, CONFIG_ENV.screeningListsMaxDropPercent);

  it('reaches only the refresh, as SCREENING_LISTS_MAX_DROP_PERCENT', () => {
    expect(percent(10)).toEqual({ [consumerDescription(listsRefresh)]: '10' });
    expect(percent('2.5')).toEqual({ [consumerDescription(listsRefresh)]: '2.5' });
  });

  it('is left out when unset, so the refresh’s default (5) applies', () => {
    expect(percent(undefined)).toEqual({});
  });

  it.each([[0], [101], ['many'], [true]])('refuses %j, naming the key and the range', (value) => {
    expect(() => buildApp({ context: { screeningListsMaxDropPercent: value } })).toThrow(
      /context "screeningListsMaxDropPercent" must be a percentage above 0, at most 100/,
    );
  });
});
