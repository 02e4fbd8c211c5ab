import { afterEach, describe, expect, it } from 'vitest';
import type { VettedUrl } from '#domain/webhook-url';
import { type Fault, FaultInjector } from '#lib/local/faults/fault-injector';
import { type FaultKind, faultPlan } from '#lib/local/faults/fault-plan';
import { injectPortFaults, PORT_FAULTS, withFaults } from '#lib/local/faults/port-faults';
import { bank } from '#shared/bank/index';
import { resetDependencies } from '#shared/dependencies';
import { identityVendor } from '#shared/identity-vendor/index';
import { messageQueue } from '#shared/queue/index';

const fault = (kind: FaultKind, roll = 0.1, latencyMs = 30): Fault => ({ kind, latencyMs, roll });
const none = () => undefined;

/** A port with state, a method on its prototype, a field and a second method. */
class Counter {
  readonly name = 'counter';
  calls = 0;
  async add(n: number): Promise<number> {
    this.calls += n;
    return this.calls;
  }
  async read(): Promise<number> {
    return this.calls;
  }
}

const METHODS = ['add', 'read'];

const failing = (error: Error) => () => {
  throw error;
};

describe('a port with faults', () => {
  it('calls through to the port itself when no fault is drawn, its fields still readable', async () => {
    const port = new Counter();
    const wrapped = withFaults(port, METHODS, none, failing(new Error('no')));
    expect(await wrapped.add(2)).toBe(2);
    expect(await wrapped.read()).toBe(2);
    expect(port.calls).toBe(2);
    expect(wrapped.name).toBe('counter');
  });

  it('fails a call with a drawn fault without reaching the port', async () => {
    const port = new Counter();
    const wrapped = withFaults(port, METHODS, () => fault('5xx'), failing(new Error('unavailable')));
    await expect(wrapped.add(1)).rejects.toThrow('unavailable');
    expect(port.calls).toBe(0);
  });

  it('lets a slow call through after the latency', async () => {
    const port = new Counter();
    const wrapped = withFaults(port, METHODS, () => fault('slow', 0.5, 60), failing(new Error('no')));
    const started = performance.now();
    expect(await wrapped.add(1)).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('fails a timed-out call only once the latency has passed', async () => {
    const port = new Counter();
    const wrapped = withFaults(port, METHODS, () => fault('timeout', 0.5, 60), failing(new Error('timed out')));
    const started = performance.now();
    await expect(wrapped.read()).rejects.toThrow('timed out');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(port.calls).toBe(0);
  });

  it('can be watched in place afterwards, as the test harness watches the queue port, without recursion', async () => {
    const port = new Counter();
    const wrapped = withFaults(port, METHODS, none, failing(new Error('no')));
    const add = wrapped.add.bind(wrapped);
    const seen: number[] = [];
    wrapped.add = (n: number) => {
      seen.push(n);
      return add(n);
    };
    expect(await wrapped.add(3)).toBe(3);
    expect(seen).toEqual([3]);
  });
});

describe('what each port answers for a fault', () => {
  const thrown = (target: 'queues' | 'identity' | 'bank', kind: FaultKind, roll = 0.1) => {
    try {
      PORT_FAULTS[target](fault(kind, roll), []);
    } catch (error) {
      return error as Error & Record<string, any>;
    }
    throw new Error('expected a throw');
  };

  it('throws SQS’s errors as its SDK shapes them: RequestThrottled, InternalFailure (500), ServiceUnavailable (503)', () => {
    expect(thrown('queues', 'throttle')).toMatchObject({
      name: 'RequestThrottled',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect(thrown('queues', '5xx', 0.2)).toMatchObject({
      name: 'InternalFailure',
      $fault: 'server',
      $metadata: { httpStatusCode: 500 },
    });
    expect(thrown('queues', '5xx', 0.7)).toMatchObject({
      name: 'ServiceUnavailable',
      $fault: 'server',
      $metadata: { httpStatusCode: 503 },
    });
  });

  it('throws the SDK’s network errors for a timeout (TimeoutError, ETIMEDOUT) and a reset (ECONNRESET)', () => {
    expect(thrown('queues', 'timeout')).toMatchObject({ name: 'TimeoutError', code: 'ETIMEDOUT' });
    expect(thrown('bank', 'reset')).toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringContaining('socket hang up'),
    });
  });

  it('throws a vendor’s unavailability from the identity vendor and the bank: 503, or 429 when throttled', () => {
    for (const target of ['identity', 'bank'] as const) {
      expect(thrown(target, '5xx')).toMatchObject({
        name: 'ServiceUnavailable',
        $fault: 'server',
        $metadata: { httpStatusCode: 503 },
      });
      expect(thrown(target, 'throttle')).toMatchObject({
        name: 'TooManyRequestsException',
        $fault: 'client',
        $metadata: { httpStatusCode: 429 },
      });
    }
    expect(thrown('identity', '5xx').message).toMatch(/identity vendor.*injected fault/);
  });

  it('answers a webhook as a receiver would: 503, 429, a timeout or a dropped connection, each with its latency', () => {
    const target = { url: new URL('https://hooks.example.com/x'), addresses: ['93.184.216.34'] } as VettedUrl;
    const answer = (kind: FaultKind) => PORT_FAULTS.webhooks(fault(kind), [target, {}, '{}', 10_000]);
    expect(answer('5xx')).toEqual({ status: 503, latencyMs: 0 });
    expect(answer('throttle')).toEqual({ status: 429, latencyMs: 0 });
    expect(answer('timeout')).toEqual({ error: 'no answer within 10000 ms', latencyMs: 10_000 });
    expect(answer('reset')).toEqual({ error: 'connection failed', latencyMs: 0 });
  });
});

describe('the ports put in place', () => {
  afterEach(() => resetDependencies());
  const identity = { first_name: 'Jane', last_name: 'Doe', ssn: '123456789' } as never;
  const check = { tenant: 'acme', id: '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b', identityRev: 1 };

  it('wraps only the ports the plan gives a rate, and puts the defaults back', async () => {
    const queue = messageQueue();
    const injector = new FaultInjector(faultPlan({ identity: { rate: 1, kinds: ['5xx'] } }));
    const restore = injectPortFaults(injector);
    expect(messageQueue()).toBe(queue);
    // Not armed yet: the runtime is still starting.
    expect(await identityVendor().verify(identity, check)).toEqual({ reasons: [] });
    injector.arm();
    await expect(identityVendor().verify(identity, check)).rejects.toMatchObject({ name: 'ServiceUnavailable' });
    restore();
    expect(await identityVendor().verify(identity, check)).toEqual({ reasons: [] });
    expect(injector.counts().identity).toEqual({ calls: 1, injected: { '5xx': 1 } });
  });

  it('wraps every method of the bank it has, and leaves out the optional ones it lacks, its name readable', async () => {
    const injector = new FaultInjector(faultPlan({ bank: { rate: 1, kinds: ['5xx'] } }));
    injectPortFaults(injector);
    injector.arm();
    const sandbox = bank();
    expect(sandbox.name).toBe('sandbox');
    // The notice route and BankReturnWindows tell a bank on rails by these methods being there.
    expect(sandbox.readNotice).toBeUndefined();
    expect(sandbox.confirmSilence).toBeUndefined();
    const account = { routing_number: '021000021', account_number: '1234567890', account_holder_name: 'Jane Doe' };
    await expect(sandbox.checkOwnership(account, {})).rejects.toMatchObject({ name: 'ServiceUnavailable' });
  });
});
