import type { RuntimeLog } from '../log';
import { startDynamoDbFaultProxy } from './dynamodb-fault-proxy';
import { type FaultCounts, FaultInjector } from './fault-injector';
import { describeFaultPlan, type FaultPlan, type FaultPlanInput, faultPlan } from './fault-plan';
import { injectPortFaults } from './port-faults';

/** What a runtime with faults tells about them (`LocalRuntime.faults`). */
export interface FaultInjection {
  readonly plan: FaultPlan;
  /** Per dependency: the handlers' calls since the runtime was ready, and the faults injected, by kind. */
  counts(): FaultCounts;
  /** The counts in one line, as the stop log gives them. */
  summary(): string;
}

/** The runtime's handle on its faults, from start to stop. */
export interface RuntimeFaults {
  readonly injection: FaultInjection;
  /**
   * Where the handlers reach DynamoDB: the fault proxy when DynamoDB has a rate, else the
   * endpoint it would forward to (the IAM proxy in front of DynamoDB Local). The runtime's
   * own clients (table creation, the stream pollers, which play Lambda's event source
   * mapping, not a function) keep DynamoDB Local's.
   */
  readonly handlerDynamoEndpoint: string;
  /**
   * Puts the faulty ports in place over the runtime's own (its queues) and starts drawing.
   * Called once the runtime is ready, so start-up (the screening lists it loads) meets none.
   */
  arm(): void;
  /** Puts the ports back, stops the proxy and logs what was injected. */
  stop(): Promise<void>;
}

/**
 * The faults of `LocalRuntimeOptions.faults` (docs/local.md#fault-injection), before the
 * handlers are configured; DynamoDB's fault proxy forwards to `dynamoEndpoint`.
 */
export async function startRuntimeFaults(
  setting: FaultPlanInput | string,
  dynamoEndpoint: string,
  log: RuntimeLog,
): Promise<RuntimeFaults> {
  const plan = faultPlan(setting);
  const injector = new FaultInjector(plan);
  const proxy =
    plan.dynamodb.rate > 0 ? await startDynamoDbFaultProxy(dynamoEndpoint, () => injector.draw('dynamodb')) : undefined;
  let restorePorts: (() => void) | undefined;
  return {
    injection: { plan, counts: () => injector.counts(), summary: () => injector.summary() },
    handlerDynamoEndpoint: proxy?.endpoint ?? dynamoEndpoint,
    arm: () => {
      restorePorts = injectPortFaults(injector);
      injector.arm();
      log('debug', describeFaultPlan(plan));
    },
    stop: async () => {
      restorePorts?.();
      await proxy?.stop();
      log('info', injector.summary());
    },
  };
}
