import { cipher } from '#shared/cipher/index';
import { documentClient } from '#shared/db/document-client';
import { TenantScopedDocumentClient } from '#shared/db/tenant-access/document-client';
import { setDependencies } from '#shared/dependencies';
import type { BenchContext } from './context';
import { type BenchService, type BenchServiceOptions, startBenchService } from './local-service';
import { Meter } from './metering';
import type { Arrival, Receiver } from './receiver';

/**
 * The local runtime with every handler invocation metered (test/bench/metering.ts): each
 * DynamoDB call's consumed capacity, each SQS send, KMS call and email, each log line.
 */
export async function startMeteredService(
  context: BenchContext,
  options: Omit<BenchServiceOptions, 'invoker' | 'logLine'>,
): Promise<{ service: BenchService; meter: Meter }> {
  const meter = new Meter();
  const service = await startBenchService(context, { ...options, invoker: meter.invoker(), logLine: meter.logLine });
  // Every client the service's commands go through: its own role's and each tenant's.
  const client = documentClient();
  if (client instanceof TenantScopedDocumentClient) client.everyClient((each) => meter.instrumentDynamo(each));
  else meter.instrumentDynamo(client);
  setDependencies({
    queue: meter.queue(service.runtime.queues),
    cipher: meter.cipher(cipher()),
    notifier: meter.notifier(service.runtime.outbox),
  });
  return { service, meter };
}

/** Stops the service and forgets the metered cipher (the runtime's stop clears the queue and notifier). */
export async function stopMeteredService(service: BenchService): Promise<void> {
  setDependencies({ cipher: undefined });
  await service.stop();
}

/** The webhooks the receiver got about one verify account. */
export const accountArrivals = (receiver: Receiver, id: string): Arrival[] =>
  [...receiver.arrivals.values()].filter((arrival) => arrival.envelope.event_data.account?.id === id);
