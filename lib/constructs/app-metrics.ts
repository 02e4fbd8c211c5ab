import { Duration, Stack } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { ENV } from '#shared/config';
import {
  COUNT_METRICS,
  type CountMetric,
  DEFAULT_NAMESPACE,
  LATENCY_METRICS,
  type LatencyMetric,
  METRICS_DIMENSION,
} from '#shared/metric-names';

// The contract between the functions' EMF metrics (Powertools Metrics,
// functions/shared/metrics.ts) and the alarms and dashboard built on them: the names are
// those of functions/shared/metric-names.ts. Every function gets both variables
// (`ServiceFunction`), so each metric lands in the `VerifyService` namespace with one
// dimension, `service` = the stack name: two stages in one account never mix their numbers.

export const APP_METRICS_ENV = { serviceName: ENV.serviceName, namespace: ENV.metricsNamespace } as const;

/** The CloudWatch namespace of the application's own metrics. */
export const APP_METRICS_NAMESPACE = DEFAULT_NAMESPACE;

/**
 * The application's metrics. Counts are one per occurrence, summed; `WebhookDeliveryFailed`
 * is one per failed attempt (a delivery retried 6 times and then delivered counts 6
 * failures and 1 success), `WebhookDeliveryExhausted` one per delivery given up after its
 * last attempt.
 */
export const APP_METRICS: readonly AppMetricName[] = [...COUNT_METRICS, ...LATENCY_METRICS];

export type AppMetricName = CountMetric | LatencyMetric;

/**
 * The value of the `service` dimension (and of `POWERTOOLS_SERVICE_NAME`): the name of the
 * deployed stack, also from its nested monitoring stack, whose own name is CloudFormation's.
 */
export function appServiceName(scope: Construct): string {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack.stackName;
}

const isLatency = (name: AppMetricName): name is LatencyMetric => (LATENCY_METRICS as readonly string[]).includes(name);

/**
 * One application metric of this stack, as CloudWatch stores it. Counts default to their
 * sum over 5 minutes, latency to its p99.
 */
export function appMetric(scope: Construct, name: AppMetricName, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: APP_METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { [METRICS_DIMENSION]: appServiceName(scope) },
    statistic: isLatency(name) ? 'p99' : 'Sum',
    period: Duration.minutes(5),
    ...options,
  });
}
