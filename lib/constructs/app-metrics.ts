import { Duration, Stack } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

/**
 * The contract between the functions' EMF metrics (Powertools Metrics) and the alarms and
 * dashboard built on them. Every function gets both variables (`ServiceFunction`), so each
 * metric lands in `APP_METRICS_NAMESPACE` with one dimension, `service` = the stack name:
 * two stages in one account never mix their numbers.
 */
export const POWERTOOLS_ENV = {
  /** Powertools' service name: the `service` dimension of every metric (and the logger's `service` key). */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** Powertools' metrics namespace. */
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
} as const;

/** The CloudWatch namespace of the application's own metrics. */
export const APP_METRICS_NAMESPACE = 'VerifyService';

/** The dimension every application metric carries, and no other. */
export const APP_METRICS_DIMENSION = 'service';

/**
 * The application's metrics and their units. Counts are one per occurrence, summed;
 * `WebhookDeliveryFailed` is one per failed attempt (a delivery retried 6 times and then
 * delivered counts 6 failures and 1 success), `WebhookDeliveryExhausted` one per delivery
 * given up after its last attempt.
 */
export const APP_METRICS = {
  webhookDeliverySucceeded: { name: 'WebhookDeliverySucceeded', unit: 'Count' },
  webhookDeliveryFailed: { name: 'WebhookDeliveryFailed', unit: 'Count' },
  webhookDeliveryExhausted: { name: 'WebhookDeliveryExhausted', unit: 'Count' },
  webhookDeliveryLatency: { name: 'WebhookDeliveryLatency', unit: 'Milliseconds' },
  verificationCreated: { name: 'VerificationCreated', unit: 'Count' },
  verificationSettled: { name: 'VerificationSettled', unit: 'Count' },
  personStatusChanged: { name: 'PersonStatusChanged', unit: 'Count' },
  identificationCompleted: { name: 'IdentificationCompleted', unit: 'Count' },
  idempotentReplay: { name: 'IdempotentReplay', unit: 'Count' },
} as const;

export type AppMetricId = keyof typeof APP_METRICS;

/** The value of the `service` dimension (and of `POWERTOOLS_SERVICE_NAME`) in this stack. */
export const appServiceName = (scope: Construct): string => Stack.of(scope).stackName;

/**
 * One application metric of this stack, as CloudWatch stores it. Counts default to their
 * sum over 5 minutes, latency to its p99.
 */
export function appMetric(scope: Construct, id: AppMetricId, options: MetricOptions = {}): Metric {
  const { name, unit } = APP_METRICS[id];
  return new Metric({
    namespace: APP_METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { [APP_METRICS_DIMENSION]: appServiceName(scope) },
    statistic: unit === 'Count' ? 'Sum' : 'p99',
    period: Duration.minutes(5),
    ...options,
  });
}
