import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { documentClient } from '#shared/db/document-client';
import { FAST_TIMINGS, STREAM_FIXTURES } from '#test/integration/fixtures/pipeline-consumers';
import { fixtureStore } from '#test/integration/fixtures/pipeline-store';
import { startTestRuntime } from '#test/integration/harness';

/**
 * Where a stream consumer starts reading: the oldest record for a stream it never read
 * (records written before it started are not skipped), its checkpoint after a restart
 * with the same DATA_DIR. Runtimes here run one after another on one table.
 */
const tableName = `test-${randomUUID()}`;
const probeOnly = STREAM_FIXTURES.filter((consumer) => consumer.id === 'ProbeStream');
let dataDir: string;
let runtime: LocalRuntime | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'local-data-'));
});
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const start = async (consumers = probeOnly) => {
  runtime = await startTestRuntime({ tableName, routes: [], consumers, pipelineTimings: FAST_TIMINGS, dataDir });
  return runtime;
};
const put = (pk: string) =>
  documentClient().send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'S', entity: 'probe' } }));
const deliveries = (pk: string) =>
  fixtureStore()
    .streamInvocations.flatMap((i) => i.records)
    .filter((r) => r.dynamodb?.Keys?.pk?.S === pk).length;

describe('stream starting position', () => {
  const early = `probe#early-${randomUUID()}`;
  const later = `probe#later-${randomUUID()}`;

  it('delivers records written before the poller started (TRIM_HORIZON, not LATEST)', async () => {
    await start([]);
    await put(early);
    await runtime!.stop();

    await (await start()).settle();
    expect(deliveries(early)).toBe(1);
  });

  it('continues from its checkpoint after a restart with the same data directory', async () => {
    await start();
    await put(later);
    await runtime!.settle();
    expect(deliveries(early)).toBe(1);
    expect(deliveries(later)).toBe(1);
  });
});
