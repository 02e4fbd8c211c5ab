import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { CONSUMERS, deployedRoutes, ROUTES, routeKey } from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import { type BuildOptions, buildApp, functionByDescription, resourcesOf, synthTemplate } from '../harness';

const stageThrottle = (template: Template) => {
  const stages = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
  expect(stages).toHaveLength(1);
  return stages[0]!.Properties?.DefaultRouteSettings;
};
const apiVariables = (template: Template) =>
  deployedRoutes(ROUTES).map((route) => functionByDescription(template, routeKey(route)).props.Environment.Variables);
const tenantLimitsOf = (template: Template) => [
  ...new Set(
    apiVariables(template).map((v) => JSON.stringify([v[CONFIG_ENV.tenantRatePerSecond], v[CONFIG_ENV.tenantBurst]])),
  ),
];

describe('stage throttling', () => {
  it('defaults to 50 requests/s, burst 100, without context', () => {
    expect(stageThrottle(synthTemplate())).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
  });

  it('comes from context apiThrottleRate / apiThrottleBurst, as cdk.json numbers or -c strings', () => {
    expect(stageThrottle(synthTemplate({ context: { apiThrottleRate: 200, apiThrottleBurst: 400 } }))).toEqual({
      ThrottlingRateLimit: 200,
      ThrottlingBurstLimit: 400,
    });
    expect(stageThrottle(synthTemplate({ context: { apiThrottleRate: '12.5', apiThrottleBurst: '30' } }))).toEqual({
      ThrottlingRateLimit: 12.5,
      ThrottlingBurstLimit: 30,
    });
  });

  it('takes each key on its own: the other keeps its default', () => {
    expect(stageThrottle(synthTemplate({ context: { apiThrottleBurst: 7 } }))).toEqual({
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 7,
    });
  });

  it("lets the stack's throttle prop win over context", () => {
    const template = synthTemplate({
      context: { apiThrottleRate: 200, apiThrottleBurst: 400 },
      stackProps: { throttle: { throttleRateLimit: 5 } },
    });
    expect(stageThrottle(template)).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 400 });
  });

  it.each([
    ['apiThrottleRate', 0],
    ['apiThrottleRate', -1],
    ['apiThrottleRate', 'fast'],
    ['apiThrottleRate', '1e3'],
    ['apiThrottleBurst', 2.5],
    ['apiThrottleBurst', 0],
    ['apiThrottleBurst', '1,000'],
    ['apiThrottleBurst', true],
  ])('refuses %s = %j, naming the key', (key, value) => {
    expect(() => buildApp({ context: { [key]: value } })).toThrow(new RegExp(`context "${key}" must be`));
  });
});

describe('per-tenant rate-limit defaults', () => {
  it('give every API function TENANT_RATE_PER_SECOND=50 and TENANT_BURST=100 without context', () => {
    expect(tenantLimitsOf(synthTemplate())).toEqual([JSON.stringify(['50', '100'])]);
  });

  it('come from context tenantRatePerSecond / tenantBurst, on every API function', () => {
    const options: BuildOptions = { context: { tenantRatePerSecond: '2.5', tenantBurst: 10 } };
    const template = synthTemplate(options);
    expect(apiVariables(template)).toHaveLength(deployedRoutes(ROUTES).length);
    expect(tenantLimitsOf(template)).toEqual([JSON.stringify(['2.5', '10'])]);
  });

  it('are independent of the stage throttle', () => {
    const template = synthTemplate({ context: { apiThrottleRate: 500, tenantBurst: 20 } });
    expect(tenantLimitsOf(template)).toEqual([JSON.stringify(['50', '20'])]);
    expect(stageThrottle(template)).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 100 });
  });

  it("give consumers neither variable: no consumer takes a tenant's tokens", () => {
    const template = synthTemplate({ context: { tenantRatePerSecond: 3, tenantBurst: 4 } });
    for (const consumer of CONSUMERS) {
      const variables = functionByDescription(template, consumerDescription(consumer)).props.Environment.Variables;
      expect(variables[CONFIG_ENV.tenantRatePerSecond], consumer.id).toBeUndefined();
      expect(variables[CONFIG_ENV.tenantBurst], consumer.id).toBeUndefined();
    }
  });

  it("let the stack's tenantLimit prop win over context", () => {
    const template = synthTemplate({
      context: { tenantRatePerSecond: 3, tenantBurst: 4 },
      stackProps: { tenantLimit: { ratePerSecond: 7, burst: 9 } },
    });
    expect(tenantLimitsOf(template)).toEqual([JSON.stringify(['7', '9'])]);
  });

  it.each([
    ['tenantRatePerSecond', 0],
    ['tenantRatePerSecond', 'lots'],
    ['tenantBurst', 0.5],
    ['tenantBurst', -3],
    ['tenantBurst', { burst: 3 }],
  ])('refuse %s = %j, naming the key', (key, value) => {
    expect(() => buildApp({ context: { [key]: value } })).toThrow(new RegExp(`context "${key}" must be`));
  });
});
