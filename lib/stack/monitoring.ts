import { NestedStack, type Stack } from 'aws-cdk-lib';
import type { AlarmTopic } from '#lib/constructs/alarms';
import type { ApiFunction } from '#lib/constructs/api-function';
import type { EventPipeline } from '#lib/constructs/event-pipeline';
import type { HttpApi } from '#lib/constructs/http-api';
import { type MonitoredFunction, type MonitoredStore, ServiceAlarms } from '#lib/constructs/service-alarms';
import { ServiceDashboard } from '#lib/constructs/service-dashboard';
import { LISTS_REFRESHER } from './consumer-environment';

// What watches the service: every alarm (dead letters, functions, stream, API, application)
// and one dashboard of them, in a nested stack of their own. CloudFormation holds at most
// 500 resources in a stack and every route adds two alarms to its nine other resources:
// the alarms, a fifth of the service, would otherwise bring the next routes to that
// ceiling at deploy time (docs/decisions.md#the-alarms-live-in-a-nested-stack-of-their-own).
//
// The alarms' metrics name the parent's functions, queues and API, and they notify the
// parent's alarm topic: CDK passes each such reference as a parameter of the nested stack
// (one per function and per queue, plus the API and the topic). CloudFormation allows 200;
// test/infra/monitoring.test.ts holds them to 150.
//
// The alarm topic and its key stay in the parent (lib/stack.ts): operators subscribe to the
// topic after a deploy, and moving it would replace it and drop every subscription; its ARN
// stays the output AlarmTopicArn; and here it is one parameter like any other reference.

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

/**
 * The nested stack of the service's alarms (`ServiceAlarms`) and its dashboard
 * (`ServiceDashboard`), under the construct ids that name their resources. It holds no
 * data: replacing or deleting it loses only alarm history.
 */
export class Monitoring extends NestedStack {
  readonly serviceAlarms: ServiceAlarms;
  readonly dashboard: ServiceDashboard;

  constructor(
    scope: Stack,
    id: string,
    { alarms, httpApi, functions, pipeline, identityChecksMayStall }: MonitoringProps,
  ) {
    super(scope, id, { description: `The alarms and dashboard of ${scope.stackName}` });
    const monitored: MonitoredFunction[] = [
      ...[...functions].map(([id, fn]) => ({ id, fn, kind: 'api' as const })),
      ...[...pipeline.consumers].map(([id, fn]) => ({ id, fn, kind: fn.consumer.source.kind })),
    ];
    const workQueues = [...pipeline.queues.values()];
    const deadLetterStores: MonitoredStore[] = [
      ...workQueues.map((q) => ({
        id: `${q.settings.name}DeadLetters`,
        label: `${q.settings.name} DLQ`,
        store: q.deadLetters,
      })),
      ...[...pipeline.onFailure].map(([id, store]) => ({ id: `${id}OnFailure`, label: `${id} on-failure`, store })),
      ...[...pipeline.scheduleDeadLetters].map(([id, store]) => ({
        id: `${id}ScheduleDeadLetters`,
        label: `${id} schedule DLQ`,
        store,
      })),
    ];
    this.serviceAlarms = new ServiceAlarms(this, 'ServiceAlarms', {
      alarms,
      httpApi,
      functions: monitored,
      deadLetterStores,
      listsRefresh: LISTS_REFRESHER,
      identityChecksMayStall,
    });
    const {
      deadLetters,
      functionErrors,
      functionThrottles,
      iteratorAge,
      api5xxRate,
      webhookFailureRate,
      webhookExhausted,
      listsRefreshFailed,
      listsRefreshStale,
      identityChecksStalled,
    } = this.serviceAlarms;
    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      httpApi,
      functions: monitored,
      workQueues: new Map(workQueues.map((q) => [q.settings.name, q.queue])),
      deadLetterQueues: new Map(deadLetterStores.map(({ label, store }) => [label, store.queue])),
      serviceAlarms: this.serviceAlarms,
      alarms: [
        api5xxRate,
        webhookFailureRate,
        webhookExhausted,
        ...(listsRefreshFailed && listsRefreshStale ? [listsRefreshFailed, listsRefreshStale] : []),
        ...(identityChecksStalled ? [identityChecksStalled] : []),
        ...iteratorAge.values(),
        ...deadLetters.values(),
        ...functionErrors.values(),
        ...functionThrottles.values(),
      ],
    });
  }
}
