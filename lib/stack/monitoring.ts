import type { Stack } from 'aws-cdk-lib';
import type { AlarmTopic } from '#lib/constructs/alarms';
import type { ApiFunction } from '#lib/constructs/api-function';
import type { EventPipeline } from '#lib/constructs/event-pipeline';
import type { HttpApi } from '#lib/constructs/http-api';
import { type MonitoredFunction, ServiceAlarms } from '#lib/constructs/service-alarms';
import { ServiceDashboard } from '#lib/constructs/service-dashboard';
import { LISTS_REFRESHER } from './consumer-environment';

// What watches the service: the function, stream, API and application alarms, and one
// dashboard of them beside the queues and their dead letters. Built in the stack itself
// (VerifyServiceStack), under the construct ids that name their resources.

/** What is watched: the API, every route's and consumer's function, the queues and dead letters. */
export interface MonitoringProps {
  readonly alarms: AlarmTopic;
  readonly httpApi: HttpApi;
  /** The function of each deployed route, by route id. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  readonly pipeline: EventPipeline;
  /** The identity vendor may answer later (a real vendor): its stalled checks are alarmed. */
  readonly identityChecksMayStall: boolean;
}

/** The service's alarms (the dead-letter alarms sit beside their queues) and its dashboard. */
export function monitoring(
  stack: Stack,
  { alarms, httpApi, functions, pipeline, identityChecksMayStall }: MonitoringProps,
): { serviceAlarms: ServiceAlarms; dashboard: ServiceDashboard } {
  const monitored: MonitoredFunction[] = [
    ...[...functions].map(([id, fn]) => ({ id, fn, kind: 'api' as const })),
    ...[...pipeline.consumers].map(([id, fn]) => ({ id, fn, kind: fn.consumer.source.kind })),
  ];
  const serviceAlarms = new ServiceAlarms(stack, 'ServiceAlarms', {
    alarms,
    httpApi,
    functions: monitored,
    listsRefresh: LISTS_REFRESHER,
    identityChecksMayStall,
  });
  const workQueues = [...pipeline.queues.values()];
  const deadLetterStores = [
    ...workQueues.map((q) => [`${q.settings.name} DLQ`, q.deadLetters] as const),
    ...[...pipeline.onFailure].map(([id, store]) => [`${id} on-failure`, store] as const),
    ...[...pipeline.scheduleDeadLetters].map(([id, store]) => [`${id} schedule DLQ`, store] as const),
  ];
  const {
    functionErrors,
    functionThrottles,
    iteratorAge,
    api5xxRate,
    webhookFailureRate,
    webhookExhausted,
    listsRefreshFailed,
    listsRefreshStale,
    identityChecksStalled,
  } = serviceAlarms;
  const dashboard = new ServiceDashboard(stack, 'Dashboard', {
    httpApi,
    functions: monitored,
    workQueues: new Map(workQueues.map((q) => [q.settings.name, q.queue])),
    deadLetterQueues: new Map(deadLetterStores.map(([name, store]) => [name, store.queue])),
    serviceAlarms,
    alarms: [
      api5xxRate,
      webhookFailureRate,
      webhookExhausted,
      ...(listsRefreshFailed && listsRefreshStale ? [listsRefreshFailed, listsRefreshStale] : []),
      ...(identityChecksStalled ? [identityChecksStalled] : []),
      ...iteratorAge.values(),
      ...deadLetterStores.map(([, store]) => store.alarm),
      ...functionErrors.values(),
      ...functionThrottles.values(),
    ],
  });
  return { serviceAlarms, dashboard };
}
