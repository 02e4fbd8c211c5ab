import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CONSUMERS, deployedRoutes, ROUTES } from '#lib/service/index';
import { buildApp, monitoringTemplate, propsOf, refId, resourcesOf } from './harness';

const { stack } = buildApp();
const template = Template.fromStack(stack);
/** Every alarm lives in the monitoring nested stack; its metrics and actions name the parent's resources. */
const alarms = Object.values(resourcesOf(monitoringTemplate(stack), 'AWS::CloudWatch::Alarm')).map((a) => propsOf(a));
const queues = resourcesOf(template, 'AWS::SQS::Queue');
const [topicId] = Object.keys(resourcesOf(template, 'AWS::SNS::Topic'));
const [apiId] = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Api'));
const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);

const API_IDS = deployedRoutes(ROUTES).map((r) => r.id);
const CONSUMER_IDS = CONSUMERS.map((c) => c.id);
/** Every function of the stack by route or consumer id, with its logical id. */
const FUNCTIONS = [
  ...API_IDS.map((id) => [id, logicalId(stack.functions.get(id)!), 'api'] as const),
  ...CONSUMER_IDS.map((id) => [id, logicalId(stack.pipeline.consumers.get(id)!), 'consumer'] as const),
];

/** The alarms on one Lambda metric of one function. */
const lambdaAlarms = (functionId: string, metricName: string) =>
  alarms.filter(
    (a) =>
      a.Namespace === 'AWS/Lambda' &&
      a.MetricName === metricName &&
      JSON.stringify(a.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: functionId } }]),
  );

/** A metric-math alarm's expression and its metrics by id. */
function mathOf(alarm: Record<string, any>) {
  const metrics = alarm.Metrics as Record<string, any>[];
  const [expression] = metrics.filter((m) => m.ReturnData !== false);
  const inputs = Object.fromEntries(metrics.filter((m) => m.ReturnData === false).map((m) => [m.Id, m.MetricStat]));
  return { expression: expression?.Expression as string, inputs };
}
const mathAlarmsOver = (metricName: string) =>
  alarms.filter((a) =>
    ((a.Metrics ?? []) as Record<string, any>[]).some((m) => m.MetricStat?.Metric.MetricName === metricName),
  );

const notifiesTheTopic = { AlarmActions: [{ Ref: topicId }], OKActions: [{ Ref: topicId }] };

describe('dead letters: every queue has a dead-letter queue or is one, and every dead-letter store is alarmed', () => {
  /** Queues a redrive policy, an event source mapping's on-failure destination or an EventBridge target sends failures to. */
  const deadLetterTargets = new Set([
    ...Object.values(queues).flatMap((q) => {
      const target = q.Properties?.RedrivePolicy?.deadLetterTargetArn;
      return target ? [refId(target)] : [];
    }),
    ...Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).flatMap((m) => {
      const destination = m.Properties?.DestinationConfig?.OnFailure?.Destination;
      return destination ? [refId(destination)] : [];
    }),
    ...Object.entries(resourcesOf(template, 'AWS::Events::Rule')).flatMap(([id, r]) =>
      (propsOf(r, id).Targets as Record<string, any>[]).flatMap((t) =>
        t.DeadLetterConfig ? [refId(t.DeadLetterConfig.Arn)] : [],
      ),
    ),
  ]);

  it.each(Object.keys(queues))('%s either sends what fails to a dead-letter queue, or is a dead-letter store', (id) => {
    const redrive = queues[id]!.Properties?.RedrivePolicy;
    expect(Boolean(redrive) !== deadLetterTargets.has(id), id).toBe(true);
    if (redrive) expect(queues[refId(redrive.deadLetterTargetArn)!]).toBeDefined();
  });

  it.each([...deadLetterTargets].map((id) => [id!]))(
    '%s (a dead-letter store) alarms on its first visible message, notifying the alarm topic',
    (id) => {
      const found = alarms.filter(
        (a) =>
          a.Namespace === 'AWS/SQS' &&
          a.MetricName === 'ApproximateNumberOfMessagesVisible' &&
          JSON.stringify(a.Dimensions) ===
            JSON.stringify([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }]),
      );
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', ...notifiesTheTopic });
    },
  );
});

describe('function alarms', () => {
  it.each(FUNCTIONS)(
    '%s has one Errors alarm (API functions: more than 2 in 5 minutes; consumers: any) notifying the topic',
    (_, functionId, kind) => {
      const found = lambdaAlarms(functionId, 'Errors');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: kind === 'api' ? 2 : 0,
        TreatMissingData: 'notBreaching',
        ...notifiesTheTopic,
      });
    },
  );

  it.each(FUNCTIONS)('%s has one Throttles alarm (any throttle in 5 minutes) notifying the topic', (_, functionId) => {
    const found = lambdaAlarms(functionId, 'Throttles');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Statistic: 'Sum',
      Period: 300,
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      ...notifiesTheTopic,
    });
  });

  it('the stream router alarms when its oldest record is more than 5 minutes old in each of 5 consecutive minutes', () => {
    const streamConsumers = CONSUMERS.filter((c) => c.source.kind === 'table-stream');
    expect(streamConsumers.map((c) => c.id)).toEqual(['StreamRouter']);
    const found = lambdaAlarms(logicalId(stack.pipeline.consumers.get('StreamRouter')!), 'IteratorAge');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: 5 * 60 * 1000,
      ComparisonOperator: 'GreaterThanThreshold',
      ...notifiesTheTopic,
    });
    expect(found[0]!.DatapointsToAlarm ?? 5).toBe(5);
  });
});

describe('API 5xx rate alarm', () => {
  const found = mathAlarmsOver('5xx');

  it("is one metric-math alarm: 5xx as a percentage of the API's requests over 5 minutes, above 1 %, once there are 20 requests", () => {
    expect(found).toHaveLength(1);
    const { expression, inputs } = mathOf(found[0]!);
    expect(expression).toBe('IF(requests >= 20, 100 * FILL(errors, 0) / requests, 0)');
    const apiDimension = [{ Name: 'ApiId', Value: { Ref: apiId } }];
    expect(inputs).toEqual({
      errors: {
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: apiDimension },
        Period: 300,
        Stat: 'Sum',
      },
      requests: {
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: apiDimension },
        Period: 300,
        Stat: 'Sum',
      },
    });
    expect(found[0]).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      ...notifiesTheTopic,
    });
  });
});

describe('webhook delivery alarms (the application’s EMF metrics: namespace VerifyService, dimension service = stack name)', () => {
  const appMetric = (name: string, period: number) => ({
    Metric: { Namespace: 'VerifyService', MetricName: name, Dimensions: [{ Name: 'service', Value: stack.stackName }] },
    Period: period,
    Stat: 'Sum',
  });

  it('failure rate: failed / (succeeded + failed) above 20 % over 15 minutes, once 10 attempts were made; a period without successes still counts', () => {
    const found = mathAlarmsOver('WebhookDeliveryFailed');
    expect(found).toHaveLength(1);
    const { expression, inputs } = mathOf(found[0]!);
    expect(expression).toBe(
      'IF(FILL(ok, 0) + FILL(failed, 0) >= 10, 100 * FILL(failed, 0) / (FILL(ok, 0) + FILL(failed, 0)), 0)',
    );
    expect(inputs).toEqual({
      ok: appMetric('WebhookDeliverySucceeded', 900),
      failed: appMetric('WebhookDeliveryFailed', 900),
    });
    expect(found[0]).toMatchObject({ Threshold: 20, ComparisonOperator: 'GreaterThanThreshold', ...notifiesTheTopic });
  });

  it('exhausted: any delivery given up after its last attempt', () => {
    const found = alarms.filter((a) => a.MetricName === 'WebhookDeliveryExhausted');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Namespace: 'VerifyService',
      Dimensions: [{ Name: 'service', Value: stack.stackName }],
      Statistic: 'Sum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      ...notifiesTheTopic,
    });
  });

  it.each(FUNCTIONS)(
    '%s names its metrics as the alarms read them: POWERTOOLS_SERVICE_NAME = stack name, namespace VerifyService',
    (_, functionId) => {
      const variables = resourcesOf(template, 'AWS::Lambda::Function')[functionId]!.Properties?.Environment.Variables;
      expect(variables.POWERTOOLS_SERVICE_NAME).toBe(stack.stackName);
      expect(variables.POWERTOOLS_METRICS_NAMESPACE).toBe('VerifyService');
    },
  );

  it('the service dimension follows the stack name, so two stages in one account never share an alarm', () => {
    const { stack: staging } = buildApp({ stackProps: { stackName: 'VerifyService-staging' } });
    const stagingAlarms = Object.values(resourcesOf(monitoringTemplate(staging), 'AWS::CloudWatch::Alarm'));
    const exhausted = stagingAlarms.find((a) => a.Properties?.MetricName === 'WebhookDeliveryExhausted');
    expect(exhausted?.Properties?.Dimensions).toEqual([{ Name: 'service', Value: 'VerifyService-staging' }]);
  });
});

describe('screening lists refresh alarms (docs/operations.md#screening-lists-refresh-failed)', () => {
  const ofStack = { Namespace: 'VerifyService', Dimensions: [{ Name: 'service', Value: stack.stackName }] };

  it('failed: any failed refresh within an hour', () => {
    const found = alarms.filter((a) => a.MetricName === 'ScreeningListsRefreshFailed');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      ...ofStack,
      Statistic: 'Sum',
      Period: 3600,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      ...notifiesTheTopic,
    });
    expect(found[0]?.AlarmDescription).toMatch(/operations\.md#screening-lists-refresh-failed$/);
  });

  it('stale: no successful refresh on 2 consecutive days, a day without any data counting as none', () => {
    const found = alarms.filter((a) => a.MetricName === 'ScreeningListsRefreshed');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      ...ofStack,
      Statistic: 'Sum',
      Period: 86_400,
      EvaluationPeriods: 2,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
      ...notifiesTheTopic,
    });
    expect(found[0]?.AlarmDescription).toMatch(/operations\.md#screening-lists-stale$/);
  });
});

describe('alarm count', () => {
  it('is two per function, one per stream consumer, one per dead-letter store, three for the API and webhooks and two for the screening lists’ refresh: nothing else', () => {
    const streamConsumers = CONSUMERS.filter((c) => c.source.kind === 'table-stream').length;
    const stores = stack.pipeline.queues.size + stack.pipeline.onFailure.size + stack.pipeline.scheduleDeadLetters.size;
    expect(alarms).toHaveLength(2 * FUNCTIONS.length + streamConsumers + stores + 3 + 2);
  });
});
