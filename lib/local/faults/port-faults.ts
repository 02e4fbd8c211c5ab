import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { BankProvider } from '#shared/bank/bank-provider';
import { bank } from '#shared/bank/index';
import { type Dependencies, setDependencies } from '#shared/dependencies';
import type { IdentityVendor } from '#shared/identity-vendor/identity-vendor';
import { identityVendor } from '#shared/identity-vendor/index';
import { messageQueue } from '#shared/queue/index';
import type { MessageQueue } from '#shared/queue/message-queue';
import { webhookTransport } from '#shared/webhook-transport/index';
import type { TransportResult, WebhookTransport } from '#shared/webhook-transport/webhook-transport';
import type { Fault, FaultInjector } from './fault-injector';
import type { FaultKind, FaultTarget } from './fault-plan';

// Faults in the ports handlers reach their other dependencies through (functions/shared/
// dependencies.ts): the queues, the identity vendor, the bank and the webhook transport.
// In process, at the port: the call a handler makes fails, or is slow, as the client or
// vendor would make it fail, and the fault replaces the call, so it never reached the
// dependency and its effect is certain (nothing sent, nothing asked, nothing delivered).

/** What a fault other than `slow` does instead of the call: throws, or answers as the port would. */
export type InsteadOfCall = (fault: Fault, args: readonly unknown[]) => unknown;

type Method = (...args: unknown[]) => unknown;
/** The names of an interface's methods, optional ones included. */
type MethodOf<P> = { [K in keyof P]-?: NonNullable<P[K]> extends (...args: never[]) => unknown ? K : never }[keyof P] &
  string;

/**
 * Each method of a port's interface, every one named: the compiler refuses a list that
 * leaves one out, so a method added to the interface cannot escape its faults.
 */
const methodsOf = <P>(methods: Record<MethodOf<P>, true>): string[] => Object.keys(methods);

/**
 * The port with each of `methods` it has drawing a fault first: none calls through, `slow`
 * calls through after the latency, `timeout` waits the latency and then does `instead`, as
 * the others do at once. An optional method the port lacks stays absent. The wrapper
 * inherits from the port, so its fields (the bank's `name`) read through, and a method can
 * still be replaced on it in place (the test harness watches the queue port so).
 */
export function withFaults<T extends object>(
  port: T,
  methods: readonly string[],
  draw: () => Fault | undefined,
  instead: InsteadOfCall,
): T {
  const wrapped = Object.create(port) as Record<string, unknown>;
  for (const name of methods) {
    const method = Reflect.get(port, name) as Method | undefined;
    if (typeof method !== 'function') continue;
    wrapped[name] = async (...args: unknown[]) => {
      const fault = draw();
      if (fault && (fault.kind === 'slow' || fault.kind === 'timeout')) await delay(fault.latencyMs);
      return fault === undefined || fault.kind === 'slow' ? method.apply(port, args) : instead(fault, args);
    };
  }
  return wrapped as T;
}

type PortTarget = Exclude<FaultTarget, 'dynamodb'>;
type ErrorKind = Exclude<FaultKind, 'slow'>;

/** An error as the AWS SDK shapes a service's (`name`, `$fault`, `$metadata`) or a network failure (`code`). */
interface ErrorShape {
  readonly name: string;
  readonly message: string;
  readonly status?: number;
  readonly code?: string;
}

/** What the SDK's node-http-handler throws when its requestTimeout passes, and when the connection drops. */
const NETWORK: Record<'timeout' | 'reset', ErrorShape> = {
  timeout: { name: 'TimeoutError', code: 'ETIMEDOUT', message: 'no answer within the request timeout' },
  reset: { name: 'Error', code: 'ECONNRESET', message: 'socket hang up' },
};

/** SQS's own (client-sqs models RequestThrottled; its 5xx come unmodelled, named by their code). */
const SQS: Record<'throttle' | '5xx', (roll: number) => ErrorShape> = {
  throttle: () => ({ name: 'RequestThrottled', status: 400, message: 'Request is throttled.' }),
  '5xx': (roll) =>
    roll < 0.5
      ? { name: 'InternalFailure', status: 500, message: 'The request processing has failed.' }
      : { name: 'ServiceUnavailable', status: 503, message: 'The request has failed due to a temporary failure.' },
};

/** An HTTP vendor's (the identity vendor, the bank's API) after its client gave up. */
const VENDOR: Record<'throttle' | '5xx', () => ErrorShape> = {
  throttle: () => ({ name: 'TooManyRequestsException', status: 429, message: 'too many requests' }),
  '5xx': () => ({ name: 'ServiceUnavailable', status: 503, message: 'service unavailable' }),
};

function injectedError(dependency: string, shape: ErrorShape): Error {
  return Object.assign(new Error(`${dependency}: ${shape.message} (injected fault)`), {
    name: shape.name,
    ...(shape.code && { code: shape.code }),
    ...(shape.status && {
      $fault: shape.status >= 500 ? 'server' : 'client',
      $metadata: { httpStatusCode: shape.status, requestId: randomUUID() },
    }),
  });
}

const throwing =
  (dependency: string, shapes: Record<'throttle' | '5xx', (roll: number) => ErrorShape>): InsteadOfCall =>
  (fault) => {
    const kind = fault.kind as ErrorKind;
    throw injectedError(dependency, kind === 'timeout' || kind === 'reset' ? NETWORK[kind] : shapes[kind](fault.roll));
  };

/** A receiver's answer, as HttpTransport reports it; the receiver itself is never reached. */
function webhookAnswer(fault: Fault, args: readonly unknown[]): TransportResult {
  const timeoutMs = args[3] as number;
  const kind = fault.kind as ErrorKind;
  if (kind === 'throttle') return { status: 429, latencyMs: 0 };
  if (kind === '5xx') return { status: 503, latencyMs: 0 };
  // The attempt is recorded as taking the whole timeout, as it would have; here only the latency passed.
  if (kind === 'timeout') return { error: `no answer within ${timeoutMs} ms`, latencyMs: timeoutMs };
  return { error: 'connection failed', latencyMs: 0 };
}

/** What each port's fault does instead of the call. */
export const PORT_FAULTS: Record<PortTarget, InsteadOfCall> = {
  queues: throwing('SQS', SQS),
  identity: throwing('identity vendor', VENDOR),
  bank: throwing('bank', VENDOR),
  webhooks: webhookAnswer,
};

/** The port each target is: its name in `Dependencies`, its getter and its methods. */
const PORTS: Record<PortTarget, { name: keyof Dependencies; current: () => object; methods: string[] }> = {
  queues: { name: 'queue', current: messageQueue, methods: methodsOf<MessageQueue>({ send: true }) },
  identity: {
    name: 'identityVendor',
    current: identityVendor,
    methods: methodsOf<IdentityVendor>({ verify: true, readNotice: true }),
  },
  bank: {
    name: 'bank',
    current: bank,
    methods: methodsOf<BankProvider>({
      checkAccount: true,
      checkDebits: true,
      checkOwnership: true,
      readNotice: true,
      confirmSilence: true,
      sendStatementCredit: true,
    }),
  },
  webhooks: {
    name: 'webhookTransport',
    current: webhookTransport,
    methods: methodsOf<WebhookTransport>({ post: true }),
  },
};

/**
 * Replaces each port the plan gives a rate with its current value (the runtime's own, such
 * as its in-process queues, already in place) drawing faults first. A port a test sets
 * later replaces the wrapper. Returns what puts the defaults back.
 */
export function injectPortFaults(injector: FaultInjector): () => void {
  const wrapped: Record<string, object> = {};
  for (const [target, { name, current, methods }] of Object.entries(PORTS) as [
    PortTarget,
    (typeof PORTS)[PortTarget],
  ][]) {
    if (injector.plan[target].rate === 0) continue;
    wrapped[name] = withFaults(current(), methods, () => injector.draw(target), PORT_FAULTS[target]);
  }
  setDependencies(wrapped as Partial<Dependencies>);
  return () => setDependencies(Object.fromEntries(Object.keys(wrapped).map((name) => [name, undefined])));
}
