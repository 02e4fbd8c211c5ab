import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp, PLAID_CONTEXT, RAILS_CONTEXT, resourcesOf } from './harness';

// The alarms and the dashboard live in a nested stack of their own (lib/stack/monitoring.ts,
// docs/decisions.md#the-alarms-live-in-a-nested-stack-of-their-own). The tests that read
// them (alarms, dashboard, pipeline, …) read that stack through the harness's
// `monitoringTemplate`; this file holds what makes the split work.

/** CloudFormation refuses a stack with more parameters than this. */
const CLOUDFORMATION_PARAMETER_LIMIT = 200;
/** Where this test stops the nested stack's parameters, leaving room for the next routes. */
const PARAMETER_BOUND = 150;

const { stack } = buildApp();
const parent = Template.fromStack(stack);
const monitoring = Template.fromStack(stack.monitoring);

describe('the monitoring nested stack', () => {
  it('holds every alarm and the dashboard: the stack itself holds neither', () => {
    expect(Object.keys(resourcesOf(monitoring, 'AWS::CloudWatch::Alarm')).length).toBeGreaterThan(0);
    expect(Object.keys(resourcesOf(monitoring, 'AWS::CloudWatch::Dashboard'))).toHaveLength(1);
    expect(resourcesOf(parent, 'AWS::CloudWatch::Alarm')).toEqual({});
    expect(resourcesOf(parent, 'AWS::CloudWatch::Dashboard')).toEqual({});
  });

  it('holds nothing else, so replacing it loses no data (only alarm history)', () => {
    const types = new Set(
      Object.values(monitoring.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type),
    );
    expect([...types].sort()).toEqual(['AWS::CloudWatch::Alarm', 'AWS::CloudWatch::Dashboard']);
  });

  it('is one resource of the stack, which passes it every parameter it takes', () => {
    const nested = Object.values(resourcesOf(parent, 'AWS::CloudFormation::Stack'));
    expect(nested).toHaveLength(1);
    const passed = Object.keys(nested[0]?.Properties?.Parameters ?? {}).sort();
    expect(passed).toEqual(Object.keys(monitoring.toJSON().Parameters ?? {}).sort());
  });

  it(`takes at most ${PARAMETER_BOUND} of CloudFormation's ${CLOUDFORMATION_PARAMETER_LIMIT} parameters on the fullest stack (real rails, Plaid)`, () => {
    const { stack: fullest } = buildApp({ context: { ...RAILS_CONTEXT, ...PLAID_CONTEXT } });
    const parameters = Object.keys(Template.fromStack(fullest.monitoring).toJSON().Parameters ?? {});
    expect(
      parameters.length,
      `${parameters.length} parameters: each is a function, queue, API or topic of the stack an alarm or the dashboard refers to (about one a route), and CloudFormation refuses a stack with more than ${CLOUDFORMATION_PARAMETER_LIMIT}. Before then, split the monitoring stack (say the route functions' alarms into a nested stack of their own beside it, lib/stack/monitoring.ts)`,
    ).toBeLessThanOrEqual(PARAMETER_BOUND);
  });
});
