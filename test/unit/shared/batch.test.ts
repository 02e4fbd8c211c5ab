import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { processQueueBatch, queueWorker } from '#shared/batch';
import { metrics } from '#shared/metrics';
import { lambdaContext } from '#test/support/http-events';
import { captureLogs } from '#test/support/logs';
import { captureMetrics, countOf } from '#test/support/metrics';
import { sqsBatch, sqsRecord } from '#test/support/records';

const emf = captureMetrics();
const logs = captureLogs();

const body = z.object({ n: z.number() });
const options = { worker: 'test-worker', body };
const errorLines = () => logs.filter((line) => line.level === 'ERROR');

describe('processQueueBatch', () => {
  it('hands each message’s parsed body to the worker and reports no failure when all succeed', async () => {
    const seen: number[] = [];
    const result = await processQueueBatch(
      sqsBatch(sqsRecord('m1', { n: 1 }), sqsRecord('m2', { n: 2 })),
      options,
      async (message) => {
        seen.push(message.n);
      },
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([1, 2]);
  });

  it('processes messages in order by default, and side by side when the worker declares them independent', async () => {
    const run = async (parallel: boolean) => {
      const events: string[] = [];
      const result = await processQueueBatch(
        sqsBatch(sqsRecord('m1', { n: 1 }), sqsRecord('m2', { n: 2 }), sqsRecord('m3', { n: 3 })),
        { ...options, parallel },
        async (message) => {
          events.push(`start ${message.n}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          events.push(`end ${message.n}`);
          if (message.n === 2) throw new Error('endpoint down');
        },
      );
      return { events, result };
    };
    const inOrder = await run(false);
    expect(inOrder.events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    const sideBySide = await run(true);
    expect(sideBySide.events.slice(0, 3)).toEqual(['start 1', 'start 2', 'start 3']);
    // Each message still fails alone.
    expect(sideBySide.result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect(inOrder.result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it('reports only the messages that failed, so only those are retried', async () => {
    const result = await processQueueBatch(
      sqsBatch(sqsRecord('m1', { n: 1 }), sqsRecord('m2', { n: 2 }), sqsRecord('m3', { n: 3 })),
      options,
      async (message) => {
        if (message.n === 2) throw new Error('bank unavailable');
      },
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it('fails a message whose body is not JSON or does not match the schema (retried, then dead-lettered)', async () => {
    const worked: number[] = [];
    const result = await processQueueBatch(
      sqsBatch(sqsRecord('not-json', '{oops'), sqsRecord('wrong-shape', { n: 'one' }), sqsRecord('good', { n: 1 })),
      options,
      async (message) => {
        worked.push(message.n);
      },
    );
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'not-json' }, { itemIdentifier: 'wrong-shape' }]);
    expect(worked).toEqual([1]);
    expect(errorLines().find((line) => line.message_id === 'wrong-shape')).toMatchObject({
      message: 'message failed; it will be retried',
      error: { message: 'message body does not match the test-worker schema' },
    });
  });

  it('answers a batch in which every message failed with all of them instead of throwing', async () => {
    const result = await processQueueBatch(
      sqsBatch(sqsRecord('m1', { n: 1 }), sqsRecord('m2', { n: 2 })),
      options,
      async () => {
        throw new Error('table unavailable');
      },
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
  });

  it('processes the messages one after another, in the batch’s order', async () => {
    const steps: string[] = [];
    await processQueueBatch(
      sqsBatch(sqsRecord('m1', { n: 1 }), sqsRecord('m2', { n: 2 }), sqsRecord('m3', { n: 3 })),
      options,
      async (message) => {
        steps.push(`start ${message.n}`);
        // The first message takes longest: in parallel, the others would finish first.
        await new Promise((resolve) => setTimeout(resolve, 30 - message.n * 10));
        steps.push(`end ${message.n}`);
      },
    );
    expect(steps).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('gives each message a logger naming the worker, the message id and its receive count', async () => {
    await processQueueBatch(sqsBatch(sqsRecord('m7', { n: 7 }, 3)), options, async (_message, logger) => {
      logger.info('working');
    });
    expect(logs.find((line) => line.message === 'working')).toMatchObject({
      worker: 'test-worker',
      message_id: 'm7',
      receive_count: '3',
    });
  });

  it('writes each message’s metrics when it ends, with its own metadata, failed or not', async () => {
    await processQueueBatch(
      sqsBatch(sqsRecord('m1', { n: 1 }), sqsRecord('m2', { n: 2 })),
      options,
      async (message) => {
        metrics().count('VerificationSettled');
        metrics().metadata('verification_status', message.n === 1 ? 'valid' : 'invalid');
        if (message.n === 2) throw new Error('later step failed');
      },
    );
    expect(emf).toHaveLength(2);
    expect(emf.map((line) => line.verification_status)).toEqual(['valid', 'invalid']);
    expect(countOf(emf, 'VerificationSettled')).toBe(2);
  });
});

describe('queueWorker', () => {
  it('is a Lambda handler whose lines carry the invocation’s request id', async () => {
    const handler = queueWorker(options, async (_message, logger) => logger.info('working'));
    const context = lambdaContext();

    const result = await handler(sqsBatch(sqsRecord('m1', { n: 1 })), context);

    expect(result).toEqual({ batchItemFailures: [] });
    expect(logs.find((line) => line.message === 'working')).toMatchObject({
      function_request_id: context.awsRequestId,
      message_id: 'm1',
    });
  });
});
