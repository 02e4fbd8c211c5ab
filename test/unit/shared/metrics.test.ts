import { afterEach, describe, expect, it, vi } from 'vitest';
import { countOf, type EmfLine, lineWith } from '#test/support/metrics';

/**
 * The metrics module against Powertools itself: what one EMF line holds, and where lines
 * go (stdout in Lambda, nowhere locally, the sink in tests). Each case loads a fresh copy
 * of the module, since Powertools reads the environment when the instance is made.
 */
const POWERTOOLS_ENV = [
  'POWERTOOLS_METRICS_NAMESPACE',
  'POWERTOOLS_SERVICE_NAME',
  'POWERTOOLS_METRICS_DISABLED',
  'POWERTOOLS_DEV',
  'AWS_LAMBDA_FUNCTION_NAME',
];

async function freshMetrics(env: Record<string, string> = {}) {
  vi.resetModules();
  for (const name of POWERTOOLS_ENV) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import('#shared/metrics');
}

/** Everything written to stdout and stderr (Powertools' own console writes there) while `act` runs. */
async function written(act: () => unknown): Promise<{ stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    await act();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return { stdout: out.join(''), stderr: err.join('') };
}

async function captured(module: Awaited<ReturnType<typeof freshMetrics>>, act: () => void): Promise<EmfLine[]> {
  const lines: EmfLine[] = [];
  module.setMetricsSink((line) => lines.push(JSON.parse(line)));
  try {
    act();
    module.flushMetrics();
  } finally {
    module.setMetricsSink(undefined);
  }
  return lines;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('metrics: the EMF line', () => {
  it('writes a count as one line in the VerifyService namespace, unit Count, with the service dimension only', async () => {
    const module = await freshMetrics();
    const lines = await captured(module, () => module.metrics().count('VerificationCreated'));

    expect(lines).toHaveLength(1);
    expect(lines[0]._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'VerifyService',
        Dimensions: [['service']],
        Metrics: [{ Name: 'VerificationCreated', Unit: 'Count' }],
      },
    ]);
    expect(lines[0]).toMatchObject({ service: 'verify-service', VerificationCreated: 1 });
  });

  it('takes the namespace from POWERTOOLS_METRICS_NAMESPACE and the service from POWERTOOLS_SERVICE_NAME', async () => {
    const module = await freshMetrics({
      POWERTOOLS_METRICS_NAMESPACE: 'VerifyServiceStaging',
      POWERTOOLS_SERVICE_NAME: 'verify-staging',
    });
    const [line] = await captured(module, () => module.metrics().count('IdempotentReplay'));

    expect(line._aws.CloudWatchMetrics[0].Namespace).toBe('VerifyServiceStaging');
    expect(line._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(line.service).toBe('verify-staging');
  });

  it('writes a latency in Milliseconds', async () => {
    const module = await freshMetrics();
    const lines = await captured(module, () => module.metrics().latency('WebhookDeliveryLatency', 142));

    expect(lineWith(lines, 'WebhookDeliveryLatency')?._aws.CloudWatchMetrics[0].Metrics).toEqual([
      { Name: 'WebhookDeliveryLatency', Unit: 'Milliseconds' },
    ]);
    expect(lines[0].WebhookDeliveryLatency).toBe(142);
  });

  it('puts metadata on the line as a property, never as a dimension', async () => {
    const module = await freshMetrics();
    const [line] = await captured(module, () => {
      module.metrics().count('VerificationSettled');
      module.metrics().metadata('verification_status', 'invalid');
    });

    expect(line.verification_status).toBe('invalid');
    expect(line._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
  });

  it('keeps every count of one invocation on its line', async () => {
    const module = await freshMetrics();
    const lines = await captured(module, () => {
      module.metrics().count('WebhookDeliveryFailed');
      module.metrics().count('WebhookDeliveryFailed');
      module.metrics().count('WebhookDeliveryExhausted');
    });

    expect(lines).toHaveLength(1);
    expect(countOf(lines, 'WebhookDeliveryFailed')).toBe(2);
    expect(countOf(lines, 'WebhookDeliveryExhausted')).toBe(1);
  });

  it('starts each flush afresh: what one invocation counted is not written again by the next', async () => {
    const module = await freshMetrics();
    const first = await captured(module, () => module.metrics().count('PersonStatusChanged'));
    const second = await captured(module, () => module.metrics().count('IdentificationCompleted'));

    expect(countOf(first, 'PersonStatusChanged')).toBe(1);
    expect(countOf(second, 'PersonStatusChanged')).toBe(0);
    expect(countOf(second, 'IdentificationCompleted')).toBe(1);
  });
});

describe('metrics: where lines go', () => {
  it('writes nothing and warns nothing when an invocation counted nothing', async () => {
    const module = await freshMetrics({ AWS_LAMBDA_FUNCTION_NAME: 'verify-accounts-get' });
    // An earlier invocation counted something, so the Powertools instance exists.
    await written(() => {
      module.metrics().count('IdempotentReplay');
      module.flushMetrics();
    });
    const warn = vi.spyOn(console, 'warn');
    const sink = vi.fn();
    module.setMetricsSink(sink);

    const output = await written(() => module.flushMetrics());
    module.setMetricsSink(undefined);
    const alsoWithoutSink = await written(() => module.flushMetrics());

    expect(sink).not.toHaveBeenCalled();
    expect(output).toEqual({ stdout: '', stderr: '' });
    expect(alsoWithoutSink).toEqual({ stdout: '', stderr: '' });
    expect(warn).not.toHaveBeenCalled();
  });

  it('writes the EMF line to stdout inside Lambda', async () => {
    const module = await freshMetrics({ AWS_LAMBDA_FUNCTION_NAME: 'verify-accounts-create' });

    const { stdout, stderr } = await written(() => {
      module.metrics().count('VerificationCreated');
      module.flushMetrics();
    });

    const line = JSON.parse(stdout) as EmfLine;
    expect(line._aws.CloudWatchMetrics[0].Namespace).toBe('VerifyService');
    expect(line.VerificationCreated).toBe(1);
    expect(stderr).toBe('');
  });

  it('writes nothing outside Lambda (the local runtime, tests without a sink), and forgets what was counted', async () => {
    const module = await freshMetrics();

    const output = await written(() => {
      module.metrics().count('VerificationCreated');
      module.flushMetrics();
    });
    const next = await captured(module, () => module.metrics().count('IdempotentReplay'));

    expect(output).toEqual({ stdout: '', stderr: '' });
    expect(countOf(next, 'VerificationCreated')).toBe(0);
  });

  it('shows the lines locally when POWERTOOLS_METRICS_DISABLED=false', async () => {
    const module = await freshMetrics({ POWERTOOLS_METRICS_DISABLED: 'false' });

    const { stdout } = await written(() => {
      module.metrics().count('VerificationCreated');
      module.flushMetrics();
    });

    expect((JSON.parse(stdout) as EmfLine).VerificationCreated).toBe(1);
  });

  it('silences them in Lambda too when POWERTOOLS_METRICS_DISABLED=true', async () => {
    const module = await freshMetrics({ AWS_LAMBDA_FUNCTION_NAME: 'fn', POWERTOOLS_METRICS_DISABLED: 'true' });

    const output = await written(() => {
      module.metrics().count('VerificationCreated');
      module.flushMetrics();
    });

    expect(output).toEqual({ stdout: '', stderr: '' });
  });
});
