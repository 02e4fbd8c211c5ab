import { describe, expect, it } from 'vitest';
import { invocation } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import { lambdaContext } from '#test/support/http-events';
import { captureLogs } from '#test/support/logs';
import { captureMetrics, countOf } from '#test/support/metrics';

const emf = captureMetrics();
const logs = captureLogs();

describe('invocation', () => {
  it('puts the Lambda request id on every line the handler writes', async () => {
    const context = lambdaContext();
    const handler = invocation(async (_event: unknown) => createLogger({ worker: 'w' }).info('working'));

    await handler({}, context);

    expect(logs).toMatchObject([{ message: 'working', worker: 'w', function_request_id: context.awsRequestId }]);
  });

  it('writes the metrics counted during the invocation once it returns, on one line', async () => {
    const handler = invocation(async (_event: unknown) => {
      metrics().count('VerificationCreated');
      expect(emf).toHaveLength(0);
      return 'done';
    });

    expect(await handler({}, lambdaContext())).toBe('done');
    expect(emf).toHaveLength(1);
    expect(countOf(emf, 'VerificationCreated')).toBe(1);
  });

  it('writes them also when the handler throws, and rethrows', async () => {
    const handler = invocation(async (_event: unknown) => {
      metrics().count('WebhookDeliveryFailed');
      throw new Error('boom');
    });

    await expect(handler({}, lambdaContext())).rejects.toThrow('boom');
    expect(countOf(emf, 'WebhookDeliveryFailed')).toBe(1);
  });

  it('runs without a context (a test calling a worker directly)', async () => {
    const handler = invocation(async (event: number) => event + 1);
    expect(await handler(1)).toBe(2);
  });
});
