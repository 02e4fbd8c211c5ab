import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { APP_METRICS } from '#lib/constructs/app-metrics';
import { CONSUMERS, deployedRoutes, ROUTES } from '#lib/service/index';
import { buildApp, monitoringTemplate, propsOf, refId, resourcesOf } from './harness';

const { stack } = buildApp();
const template = Template.fromStack(stack);
/** The dashboard and the alarms live in the monitoring nested stack; its graphs name the parent's resources. */
const monitoring = monitoringTemplate(stack);
const dashboards = resourcesOf(monitoring, 'AWS::CloudWatch::Dashboard');
const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);

/** The dashboard body as JSON, each reference written `{{<logical id>}}` (the body is an Fn::Join around them). */
function bodyOf(dashboard: Record<string, any>): { widgets: { type: string; properties: Record<string, any> }[] } {
  const body = dashboard.DashboardBody;
  const text =
    typeof body === 'string'
      ? body
      : (body['Fn::Join'][1] as unknown[])
          .map((part) => (typeof part === 'string' ? part : `{{${refId(part)}}}`))
          .join(body['Fn::Join'][0]);
  return JSON.parse(text);
}

const [dashboard] = Object.values(dashboards);
const widgets = bodyOf(propsOf(dashboard)).widgets;
/** Every metric row of every graph: [namespace, metric name, dimension name, dimension value, …, options]. */
const metricRows = widgets.flatMap((w) => (w.properties.metrics ?? []) as unknown[][]);
/** Whether some graph shows `namespace`/`name` for a dimension value (a `{{logical id}}` or a literal). */
const shows = (namespace: string, name: string, dimensionValue?: string) =>
  metricRows.some(
    (row) => row[0] === namespace && row[1] === name && (dimensionValue === undefined || row.includes(dimensionValue)),
  );

describe('dashboard', () => {
  it('is exactly one, with no hard-coded name (each stage gets its own)', () => {
    expect(Object.keys(dashboards)).toHaveLength(1);
    expect(propsOf(dashboard).DashboardName).toBeUndefined();
  });

  it('shows the state of every alarm of the stack at the top', () => {
    const alarmWidget = widgets.find((w) => w.type === 'alarm');
    const alarmIds = Object.keys(resourcesOf(monitoring, 'AWS::CloudWatch::Alarm')).map((id) => `{{${id}}}`);
    expect([...(alarmWidget?.properties.alarms ?? [])].sort()).toEqual(alarmIds.sort());
  });

  it("shows the API's requests, 4xx, 5xx and latency", () => {
    const api = `{{${Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Api'))[0]}}}`;
    for (const name of ['Count', '4xx', '5xx', 'Latency']) expect(shows('AWS/ApiGateway', name, api), name).toBe(true);
  });

  it.each([...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => [row.id]))(
    "shows %s's errors, throttles and duration",
    (id) => {
      const fn = stack.functions.get(id) ?? stack.pipeline.consumers.get(id)!;
      const ref = `{{${logicalId(fn)}}}`;
      for (const name of ['Errors', 'Throttles', 'Duration']) expect(shows('AWS/Lambda', name, ref), name).toBe(true);
    },
  );

  it('shows each work queue’s depth and oldest message, and every dead-letter store’s depth', () => {
    for (const workQueue of stack.pipeline.queues.values()) {
      const ref = `{{${logicalId(workQueue.queue)}}}`;
      expect(shows('AWS/SQS', 'ApproximateNumberOfMessagesVisible', ref)).toBe(true);
      expect(shows('AWS/SQS', 'ApproximateAgeOfOldestMessage', ref)).toBe(true);
    }
    const stores = [
      ...[...stack.pipeline.queues.values()].map((q) => q.deadLetters),
      ...stack.pipeline.onFailure.values(),
      ...stack.pipeline.scheduleDeadLetters.values(),
    ];
    expect(stores.length).toBeGreaterThan(stack.pipeline.queues.size);
    for (const store of stores) {
      expect(shows('AWS/SQS', 'ApproximateNumberOfMessagesVisible', `{{${logicalId(store.queue)}}}`)).toBe(true);
    }
  });

  it("shows the stream router's iterator age", () => {
    const ref = `{{${logicalId(stack.pipeline.consumers.get('StreamRouter')!)}}}`;
    expect(shows('AWS/Lambda', 'IteratorAge', ref)).toBe(true);
  });

  it.each(APP_METRICS.map((name) => [name]))(
    'shows the application metric %s of this stack (namespace VerifyService, service = stack name)',
    (name) => {
      expect(shows('VerifyService', name, stack.stackName)).toBe(true);
    },
  );
});
