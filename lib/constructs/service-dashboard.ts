import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type HorizontalAnnotation,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type AppMetricName, appMetric } from './app-metrics';
import type { HttpApi } from './http-api';
import type { MonitoredFunction, ServiceAlarms } from './service-alarms';

export interface ServiceDashboardProps {
  readonly httpApi: HttpApi;
  readonly functions: readonly MonitoredFunction[];
  /** Work queues by name (their depth and age of the oldest message). */
  readonly workQueues: ReadonlyMap<string, Queue>;
  /** Every dead-letter store by name: work queues' DLQs, on-failure and schedule DLQs. */
  readonly deadLetterQueues: ReadonlyMap<string, Queue>;
  /** The alarms shown at the top: every alarm of the stack. */
  readonly alarms: readonly Alarm[];
  /** For the stream consumers' iterator age. */
  readonly serviceAlarms: ServiceAlarms;
}

const PERIOD = Duration.minutes(5);
const FULL = 24;
const HALF = 12;
const THIRD = 8;

/**
 * The service's one CloudWatch dashboard, top to bottom in the order an on-call engineer
 * asks: which alarms fire; is the API healthy (requests, 4xx/5xx, 5xx rate, latency); are
 * the functions (errors, throttles, p99 duration, API functions and consumers apart); is
 * the pipeline keeping up (work queue depth and age, dead letters, stream iterator age);
 * and what the application did (webhook deliveries and their latency, verifications,
 * persons, identifications, idempotent replays: `app-metrics.ts`). No physical name, so
 * every stage has its own.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const api = props.httpApi.api;
    const apiFunctions = props.functions.filter((f) => f.kind === 'api');
    const consumers = props.functions.filter((f) => f.kind !== 'api');
    const streamConsumers = props.functions.filter((f) => f.kind === 'table-stream');
    const perFunction = (functions: readonly MonitoredFunction[], metric: (f: MonitoredFunction) => IMetric) =>
      functions.map(metric);

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Verify service\nAlarms, API, functions, pipeline, application metrics. What each alarm means and what to do first: docs/operations.md in the repository.',
        width: FULL,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: FULL, height: 6 }),
    );

    this.dashboard.addWidgets(
      graph('API requests', [api.metricCount({ period: PERIOD, statistic: 'Sum', label: 'requests' })], THIRD),
      graph(
        'API 4xx / 5xx',
        [
          api.metricClientError({ period: PERIOD, statistic: 'Sum', label: '4xx' }),
          api.metricServerError({ period: PERIOD, statistic: 'Sum', label: '5xx' }),
        ],
        THIRD,
      ),
      graph(
        'API latency (ms)',
        ['p50', 'p90', 'p99'].map((statistic) => api.metricLatency({ period: PERIOD, statistic, label: statistic })),
        THIRD,
      ),
    );

    for (const [title, functions] of [
      ['API functions', apiFunctions],
      ['Consumers', consumers],
    ] as const) {
      this.dashboard.addWidgets(
        graph(
          `${title}: errors`,
          perFunction(functions, (f) => f.fn.metricErrors({ period: PERIOD, statistic: 'Sum', label: f.id })),
          THIRD,
        ),
        graph(
          `${title}: throttles`,
          perFunction(functions, (f) => f.fn.metricThrottles({ period: PERIOD, statistic: 'Sum', label: f.id })),
          THIRD,
        ),
        graph(
          `${title}: duration p99 (ms)`,
          perFunction(functions, (f) => f.fn.metricDuration({ period: PERIOD, statistic: 'p99', label: f.id })),
          THIRD,
        ),
      );
    }

    const queueMetric = (queue: Queue, metricName: string, label: string, statistic = 'Maximum') =>
      new Metric({
        namespace: 'AWS/SQS',
        metricName,
        dimensionsMap: { QueueName: queue.queueName },
        period: PERIOD,
        statistic,
        label,
      });
    const workQueues = [...props.workQueues];
    this.dashboard.addWidgets(
      graph(
        'Work queues: messages waiting',
        workQueues.map(([name, q]) => queueMetric(q, 'ApproximateNumberOfMessagesVisible', name)),
        THIRD,
      ),
      graph(
        'Work queues: oldest message (s)',
        workQueues.map(([name, q]) => queueMetric(q, 'ApproximateAgeOfOldestMessage', name)),
        THIRD,
      ),
      graph(
        'Dead letters',
        [...props.deadLetterQueues].map(([name, q]) => queueMetric(q, 'ApproximateNumberOfMessagesVisible', name)),
        THIRD,
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Table stream: iterator age (ms)',
        perFunction(streamConsumers, (f) =>
          f.fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum', label: f.id }),
        ),
        HALF,
        [...props.serviceAlarms.iteratorAge.values()].map((alarm) => alarm.toAnnotation()),
      ),
      graph(
        'Table stream: batches handled',
        perFunction(streamConsumers, (f) => f.fn.metricInvocations({ period: PERIOD, statistic: 'Sum', label: f.id })),
        HALF,
      ),
    );

    const app = (metricId: AppMetricName, label: string, statistic?: string) =>
      appMetric(this, metricId, { label, ...(statistic && { statistic }) });
    this.dashboard.addWidgets(
      graph(
        'Webhook deliveries',
        [
          app('WebhookDeliverySucceeded', 'succeeded'),
          app('WebhookDeliveryFailed', 'failed attempts'),
          app('WebhookDeliveryExhausted', 'given up'),
        ],
        THIRD,
      ),
      graph(
        'Webhook delivery attempts failed (%)',
        [
          new MathExpression({
            expression:
              'IF(FILL(ok, 0) + FILL(failed, 0) > 0, 100 * FILL(failed, 0) / (FILL(ok, 0) + FILL(failed, 0)), 0)',
            usingMetrics: { ok: app('WebhookDeliverySucceeded', 'ok'), failed: app('WebhookDeliveryFailed', 'failed') },
            period: PERIOD,
            label: 'failed (%)',
          }),
        ],
        THIRD,
        [props.serviceAlarms.webhookFailureRate.toAnnotation()],
      ),
      graph(
        'Webhook delivery latency (ms)',
        [app('WebhookDeliveryLatency', 'p50', 'p50'), app('WebhookDeliveryLatency', 'p99', 'p99')],
        THIRD,
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Verifications and persons',
        [
          app('VerificationCreated', 'verifications created'),
          app('VerificationSettled', 'verifications settled'),
          app('StatementCreditReturned', 'statement credits returned'),
          app('BankNoticeIgnored', 'bank notices ignored'),
          app('PersonStatusChanged', 'person status changes'),
          app('IdentificationCompleted', 'identifications completed'),
          app('IdentityCheckPending', 'vendor checks pending'),
          app('IdentityCheckStalled', 'vendor checks stalled'),
          app('IdentityNoticeIgnored', 'vendor notices ignored'),
        ],
        THIRD,
      ),
      graph(
        'Screening hits',
        [app('ScreeningHitFound', 'hits found'), app('ScreeningHitDecided', 'hits decided')],
        THIRD,
      ),
      graph('Idempotent replays', [app('IdempotentReplay', 'replayed requests')], THIRD),
    );
    this.dashboard.addWidgets(
      graph(
        'Screening lists refreshes',
        [app('ScreeningListsRefreshed', 'refreshed'), app('ScreeningListsRefreshFailed', 'failed')],
        THIRD,
      ),
    );
  }
}

function graph(
  title: string,
  metrics: IMetric[],
  width: number,
  leftAnnotations?: HorizontalAnnotation[],
): GraphWidget {
  return new GraphWidget({ title, left: metrics, width, height: 6, leftAnnotations });
}
