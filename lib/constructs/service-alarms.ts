import { Duration } from 'aws-cdk-lib';
import { type Alarm, MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { AlarmTopic } from './alarms';
import { appMetric } from './app-metrics';
import type { HttpApi } from './http-api';
import type { DeadLetterStore } from './queue';
import type { ServiceFunction } from './service-function';

/** Where each alarm is explained for the on-call engineer (docs/operations.md). */
const RUNBOOK = 'docs/operations.md';

/** One function of the stack and what runs it, which decides how its errors are judged. */
export interface MonitoredFunction {
  /** The route's or consumer's id. */
  readonly id: string;
  readonly fn: ServiceFunction;
  /** `api`: behind an HTTP route; otherwise the consumer's source kind. */
  readonly kind: 'api' | 'table-stream' | 'queue' | 'schedule';
}

/** One dead-letter store of the stack: a work queue's DLQ, a stream's on-failure queue, a schedule's DLQ. */
export interface MonitoredStore {
  /** Names its alarm's construct id (`<id>NotEmpty`), unique among the stores. */
  readonly id: string;
  /** How the dashboard labels it (`Verification DLQ`). */
  readonly label: string;
  readonly store: DeadLetterStore;
}

/**
 * The thresholds, in one place so the runbook and the tests read the same numbers.
 * Counts are per 5-minute period unless said otherwise.
 */
export const ALARM_THRESHOLDS = {
  /**
   * An API function's unhandled errors (crashes, timeouts; the middleware turns every
   * other failure into a response): more than 2, so one slow dependency call does not page.
   */
  apiFunctionErrors: 2,
  /** A consumer's errors: any, since each fails a whole batch or a scheduled run. */
  consumerErrors: 0,
  /** Throttled invocations of any function: any. */
  throttles: 0,
  /** The stream router's oldest record: older than 5 minutes, in each of 5 consecutive minutes. */
  iteratorAgeMs: 5 * 60 * 1000,
  iteratorAgeMinutes: 5,
  /** Server errors of the API: above 1 % of requests over 5 minutes ... */
  api5xxPercent: 1,
  /** ... once at least this many requests came in (a single 5xx of 3 requests is no outage). */
  api5xxMinRequests: 20,
  /** Failed webhook delivery attempts: above 20 % over 15 minutes ... */
  webhookFailurePercent: 20,
  /** ... once at least this many attempts were made. */
  webhookFailureMinAttempts: 10,
  /** Deliveries given up for good: any. */
  webhookExhausted: 0,
  /** Failed refreshes of the screening lists: any, in an hour. */
  listsRefreshFailed: 0,
  /** Successful refreshes of the screening lists: none on this many consecutive UTC days (the refresh runs daily). */
  listsRefreshStaleDays: 2,
} as const;

export interface ServiceAlarmsProps {
  readonly alarms: AlarmTopic;
  readonly httpApi: HttpApi;
  /** Every function of the stack. */
  readonly functions: readonly MonitoredFunction[];
  /** Every dead-letter store of the stack. */
  readonly deadLetterStores: readonly MonitoredStore[];
  /**
   * The id of the function that refreshes the screening lists: when it is among
   * `functions`, its failures and its silence are alarmed.
   * @default - no such alarms
   */
  readonly listsRefresh?: string;
  /**
   * The identity vendor may answer later (a real vendor): a check still pending after the
   * worker's last look is alarmed.
   * @default false
   */
  readonly identityChecksMayStall?: boolean;
}

/**
 * Every alarm of the service: per dead-letter store, its first visible message; per
 * function, `Errors` and `Throttles`; per table-stream consumer, its iterator age; the
 * API's 5xx rate; and from the application's metrics (`app-metrics.ts`) the webhook
 * delivery failure rate and deliveries given up, the screening lists' refresh and a real
 * identity vendor's stalled checks. Each notifies the `AlarmTopic`, and its description
 * says what it means and where the runbook is. Built in the monitoring nested stack
 * (lib/stack/monitoring.ts): its metrics name the parent's functions, queues and API.
 */
export class ServiceAlarms extends Construct {
  /** Each dead-letter store's alarm, by the store's id. */
  readonly deadLetters: ReadonlyMap<string, Alarm>;
  /** Each function's Errors alarm, by route or consumer id. */
  readonly functionErrors: ReadonlyMap<string, Alarm>;
  /** Each function's Throttles alarm, by route or consumer id. */
  readonly functionThrottles: ReadonlyMap<string, Alarm>;
  /** Each table-stream consumer's iterator-age alarm, by consumer id. */
  readonly iteratorAge: ReadonlyMap<string, Alarm>;
  readonly api5xxRate: Alarm;
  readonly webhookFailureRate: Alarm;
  readonly webhookExhausted: Alarm;
  /** A refresh of the screening lists failed; and none succeeded for days (when the stack refreshes them). */
  readonly listsRefreshFailed?: Alarm;
  readonly listsRefreshStale?: Alarm;
  /** With a vendor that may answer later: its checks still pending after the last look. */
  readonly identityChecksStalled?: Alarm;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const { alarms } = props;
    const errors = new Map<string, Alarm>();
    const throttles = new Map<string, Alarm>();
    const iteratorAge = new Map<string, Alarm>();
    const fiveMinutes = Duration.minutes(5);

    const deadLetters = new Map<string, Alarm>();
    for (const { id: storeId, store } of props.deadLetterStores) {
      if (deadLetters.has(storeId)) throw new Error(`dead-letter store "${storeId}" is monitored twice`);
      deadLetters.set(storeId, alarms.alarmWhenNotEmpty(this, `${storeId}NotEmpty`, store.queue, store.description));
    }
    this.deadLetters = deadLetters;

    for (const { id: fnId, fn, kind } of props.functions) {
      if (errors.has(fnId)) throw new Error(`function "${fnId}" is monitored twice`);
      const api = kind === 'api';
      errors.set(
        fnId,
        alarms.alarm(this, `${fnId}Errors`, {
          metric: fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
          threshold: api ? ALARM_THRESHOLDS.apiFunctionErrors : ALARM_THRESHOLDS.consumerErrors,
          description: `${fnId}: ${ERRORS_MEANING[kind]} Read its log group for the failing requests (X-Ray shows slow calls). Runbook: ${RUNBOOK}#function-errors`,
        }),
      );
      throttles.set(
        fnId,
        alarms.alarm(this, `${fnId}Throttles`, {
          metric: fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
          threshold: ALARM_THRESHOLDS.throttles,
          description: `${fnId}: Lambda refused invocations (account or reserved concurrency exhausted). ${api ? 'Callers got 5xx answers.' : 'Its source retries them.'} Runbook: ${RUNBOOK}#function-throttles`,
        }),
      );
      if (kind === 'table-stream') {
        iteratorAge.set(
          fnId,
          alarms.alarm(this, `${fnId}IteratorAge`, {
            metric: fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
            threshold: ALARM_THRESHOLDS.iteratorAgeMs,
            evaluationPeriods: ALARM_THRESHOLDS.iteratorAgeMinutes,
            description: `${fnId} is more than 5 minutes behind the table stream for 5 minutes: verifications, identifications and webhooks wait. The stream keeps records 24 h. Runbook: ${RUNBOOK}#stream-iterator-age`,
          }),
        );
      }
    }
    this.functionErrors = errors;
    this.functionThrottles = throttles;
    this.iteratorAge = iteratorAge;

    const api = props.httpApi.api;
    this.api5xxRate = alarms.alarm(this, 'Api5xxRate', {
      metric: new MathExpression({
        // FILL: a period with requests but no 5xx datapoint is 0 %, not missing.
        expression: `IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * FILL(errors, 0) / requests, 0)`,
        usingMetrics: {
          errors: api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
          requests: api.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
        },
        period: fiveMinutes,
        label: 'API 5xx (% of requests)',
      }),
      threshold: ALARM_THRESHOLDS.api5xxPercent,
      description: `More than ${ALARM_THRESHOLDS.api5xxPercent} % of API requests answered 5xx over 5 minutes (at least ${ALARM_THRESHOLDS.api5xxMinRequests} requests). Partners see failures. Check which route in the access log, then that function's Errors. Runbook: ${RUNBOOK}#api-5xx-rate`,
    });

    const fifteenMinutes = Duration.minutes(15);
    this.webhookFailureRate = alarms.alarm(this, 'WebhookFailureRate', {
      metric: new MathExpression({
        // FILL: when every attempt failed there is no success datapoint at all.
        expression: `IF(FILL(ok, 0) + FILL(failed, 0) >= ${ALARM_THRESHOLDS.webhookFailureMinAttempts}, 100 * FILL(failed, 0) / (FILL(ok, 0) + FILL(failed, 0)), 0)`,
        usingMetrics: {
          ok: appMetric(this, 'WebhookDeliverySucceeded', { period: fifteenMinutes }),
          failed: appMetric(this, 'WebhookDeliveryFailed', { period: fifteenMinutes }),
        },
        period: fifteenMinutes,
        label: 'Webhook delivery attempts failed (%)',
      }),
      threshold: ALARM_THRESHOLDS.webhookFailurePercent,
      description: `More than ${ALARM_THRESHOLDS.webhookFailurePercent} % of webhook delivery attempts failed over 15 minutes (at least ${ALARM_THRESHOLDS.webhookFailureMinAttempts} attempts). Usually one partner's endpoint is down; each delivery is tried 7 times over about 17 hours. Find the tenant in WebhookDeliveryWorker's logs. Runbook: ${RUNBOOK}#webhook-delivery-failure-rate`,
    });
    this.webhookExhausted = alarms.alarm(this, 'WebhookDeliveriesExhausted', {
      metric: appMetric(this, 'WebhookDeliveryExhausted', { period: fiveMinutes }),
      threshold: ALARM_THRESHOLDS.webhookExhausted,
      description: `A webhook delivery failed its last attempt: a partner missed an event for good unless it is redelivered (POST /events/{id}/redeliver). Runbook: ${RUNBOOK}#webhook-deliveries-exhausted`,
    });

    if (props.listsRefresh && props.functions.some((f) => f.id === props.listsRefresh)) {
      const fnId = props.listsRefresh;
      this.listsRefreshFailed = alarms.alarm(this, 'ScreeningListsRefreshFailed', {
        metric: appMetric(this, 'ScreeningListsRefreshFailed', { period: Duration.hours(1) }),
        threshold: ALARM_THRESHOLDS.listsRefreshFailed,
        description: `${fnId}: a refresh of the sanctions lists from OFAC failed (download, parse, or a copy its checks refused: cut short, shrunk, older than the last) and wrote nothing; screening goes on against the lists as they were. Its log says which. Runbook: ${RUNBOOK}#screening-lists-refresh-failed`,
      });
      const day = Duration.days(1);
      this.listsRefreshStale = alarms.alarm(this, 'ScreeningListsStale', {
        metric: appMetric(this, 'ScreeningListsRefreshed', { period: day }),
        threshold: 1,
        below: true,
        missingDataBreaches: true,
        evaluationPeriods: ALARM_THRESHOLDS.listsRefreshStaleDays,
        description: `${fnId}: the sanctions lists were not refreshed from OFAC on ${ALARM_THRESHOLDS.listsRefreshStaleDays} consecutive days (failing, or not running): persons are screened against lists that may miss new designations. Runbook: ${RUNBOOK}#screening-lists-stale`,
      });
    }

    if (props.identityChecksMayStall) {
      this.identityChecksStalled = alarms.alarm(this, 'IdentityChecksStalled', {
        metric: appMetric(this, 'IdentityCheckStalled', { period: Duration.hours(1) }),
        threshold: 0,
        description: `The identity vendor's check of a person was still pending after its last look (2 hours): the person stays created until the vendor's notice comes or it is identified again. Runbook: ${RUNBOOK}#identity-checks-stalled`,
      });
    }
  }
}

const ERRORS_MEANING: Readonly<Record<MonitoredFunction['kind'], string>> = {
  api: `more than ${ALARM_THRESHOLDS.apiFunctionErrors} invocations failed in 5 minutes (crashes or timeouts; callers got 5xx).`,
  'table-stream':
    'an invocation failed; the batch is retried, bisected, and sent to the on-failure queue if it keeps failing.',
  queue: 'an invocation failed; its messages return to the queue and go to the dead-letter queue after their receives.',
  schedule: 'a scheduled run failed (Lambda retries it twice); the next run repeats the work.',
};
