import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { REPO_ROOT } from '#lib/repo-root';
import { CONSUMERS, STREAM_ROUTER } from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import { importGraph, reachableFrom } from '#test/support/import-graph';
import { type BuildOptions, buildApp, resourcesOf, synthTemplate } from '../harness';

const identificationWorker = CONSUMERS.find((c) => c.id === 'IdentificationWorker')!;
/** Where the screening threshold is read (`screeningThreshold()`), as the held lists are indexed. */
const THRESHOLD_READER = 'functions/shared/db/screening/held-lists.ts';

/** Each function (by description) that has the variable, with its value. */
const functionsWith = (options: BuildOptions, variable: string) =>
  Object.fromEntries(
    Object.values(resourcesOf(synthTemplate(options), 'AWS::Lambda::Function'))
      .filter((f) => f.Properties?.Environment?.Variables?.[variable] !== undefined)
      .map((f) => [f.Properties?.Description, f.Properties?.Environment.Variables[variable]]),
  );

describe('context kycMode: the KYC mode of tenants without their own', () => {
  const defaultKycMode = (kycMode: unknown) => functionsWith({ context: { kycMode } }, CONFIG_ENV.defaultKycMode);

  it('reaches only the function that reads a tenant KYC mode (IdentificationWorker), as DEFAULT_KYC_MODE', () => {
    expect(defaultKycMode('byo')).toEqual({ [consumerDescription(identificationWorker)]: 'byo' });
    expect(defaultKycMode('service')).toEqual({ [consumerDescription(identificationWorker)]: 'service' });
  });

  it('defaults to service when unset or empty (`-c kycMode=`)', () => {
    expect(defaultKycMode(undefined)).toEqual({ [consumerDescription(identificationWorker)]: 'service' });
    expect(defaultKycMode('')).toEqual({ [consumerDescription(identificationWorker)]: 'service' });
  });

  it.each([['BYO'], ['manual'], [1], [true], [['byo']]])('refuses %j, naming the key and the modes', (kycMode) => {
    expect(() => buildApp({ context: { kycMode } })).toThrow(/context "kycMode" must be one of byo, service/);
  });

  it('is overridden by the stack prop identification', () => {
    const variables = functionsWith(
      { context: { kycMode: 'service' }, stackProps: { identification: { defaultKycMode: 'byo' } } },
      CONFIG_ENV.defaultKycMode,
    );
    expect(variables).toEqual({ [consumerDescription(identificationWorker)]: 'byo' });
  });

  it('fails synthesis when the consumer that reads it is missing, rather than deploying without it', () => {
    const without = CONSUMERS.filter((c) => c !== identificationWorker);
    expect(() => buildApp({ stackProps: { consumers: without } })).toThrow(
      /consumerEnvironment names unknown consumers: IdentificationWorker/,
    );
  });
});

describe('context partners[].kycMode', () => {
  it('accepts byo and service, in a JSON string too (`-c partners=...`)', () => {
    const partners = [
      { name: 'acme', kycMode: 'byo' },
      { name: 'globex', kycMode: 'service' },
    ];
    const { stack } = buildApp({ context: { partners: JSON.stringify(partners) } });
    expect([...stack.tenantRecords.settingsResources.keys()]).toEqual(['acme', 'globex']);
  });

  it.each([['BYO'], ['none'], [null], [0]])('refuses %j, naming the entry and the key', (kycMode) => {
    expect(() => buildApp({ context: { partners: [{ name: 'sandbox' }, { name: 'acme', kycMode }] } })).toThrow(
      /context "partners"\[1\]\.kycMode must be one of byo, service/,
    );
  });
});

describe('context identificationRetryDelaySeconds', () => {
  const retryDelay = (seconds: unknown) =>
    functionsWith({ context: { identificationRetryDelaySeconds: seconds } }, CONFIG_ENV.identificationRetryDelay);

  it('reaches only the function that schedules the retry (StreamRouter), as IDENTIFICATION_RETRY_DELAY_SECONDS', () => {
    expect(retryDelay(60)).toEqual({ [consumerDescription(STREAM_ROUTER)]: '60' });
  });

  it('takes 0 to 900 seconds, as a number or a string (`-c identificationRetryDelaySeconds=30`)', () => {
    expect(retryDelay(0)).toEqual({ [consumerDescription(STREAM_ROUTER)]: '0' });
    expect(retryDelay(900)).toEqual({ [consumerDescription(STREAM_ROUTER)]: '900' });
    expect(retryDelay('30')).toEqual({ [consumerDescription(STREAM_ROUTER)]: '30' });
  });

  it("is left out when unset, so no function gets it and the stream rule's default (900) applies", () => {
    expect(retryDelay(undefined)).toEqual({});
  });

  it.each([[-1], [901], [1.5], ['soon'], ['60s'], [true]])('refuses %j, naming the key and the range', (seconds) => {
    expect(() => buildApp({ context: { identificationRetryDelaySeconds: seconds } })).toThrow(
      /context "identificationRetryDelaySeconds" must be a whole number of seconds from 0 to 900/,
    );
  });
});

describe('context screeningThreshold: the score at or above which a person matches a listing', () => {
  const threshold = (value: unknown) =>
    functionsWith({ context: { screeningThreshold: value } }, CONFIG_ENV.screeningThreshold);

  it('reaches every function whose code scores persons against the lists, and only those, as SCREENING_THRESHOLD', () => {
    // Scoring reads the threshold where the held lists are indexed: a row whose handler reaches that module scores.
    const graph = importGraph(REPO_ROOT, ['functions']);
    const scorers = CONSUMERS.filter((c) => reachableFrom(graph, c.handler).has(THRESHOLD_READER));
    expect(scorers.map((c) => c.id)).toEqual(expect.arrayContaining(['IdentificationWorker', 'ScreeningWorker']));
    const everyScorer = (value: string) => Object.fromEntries(scorers.map((c) => [consumerDescription(c), value]));
    expect(threshold(90)).toEqual(everyScorer('90'));
    expect(threshold('80')).toEqual(everyScorer('80'));
  });

  it('is left out when unset, so the matcher’s default (85) applies', () => {
    expect(threshold(undefined)).toEqual({});
  });

  it.each([[49], [101], [85.5], ['high'], [true]])('refuses %j, naming the key and the range', (value) => {
    expect(() => buildApp({ context: { screeningThreshold: value } })).toThrow(
      /context "screeningThreshold" must be a whole number from 50 to 100/,
    );
  });
});
