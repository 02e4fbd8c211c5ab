import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS, type Take } from '#domain/token-bucket';
import { documentClient } from '#shared/db/document-client';
import { keys } from '#shared/db/keys';
import { RateLimitRepository } from '#shared/db/rate-limits/index';
import { createTestTable } from '#test/integration/harness';

/** The token bucket and a container's leases of it, on the real engine. */
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});

const T0 = new Date('2026-03-02T10:00:00.000Z').getTime();
const roomy = { ratePerSecond: 0.001, burst: 100 };

/** One container: a repository of its own, over a client that counts the bucket writes it sends. */
function container() {
  const sent: string[] = [];
  const client = {
    send: (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      return documentClient().send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return {
    repository: new RateLimitRepository(client, tableName),
    updates: () => sent.filter((c) => c === 'UpdateCommand').length,
  };
}

async function tokensOf(tenant: string): Promise<number | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName, Key: keys.rateBucket(tenant) }));
  return out.Item?.tokens;
}

/** Requests of `tenant` at the given offsets from T0, one after the other; each answer with the bucket after it. */
async function requests(repository: RateLimitRepository, tenant: string, offsets: number[], policy = roomy) {
  const answers: { take: Take; tokens: number | undefined }[] = [];
  for (const offset of offsets) {
    const take = await repository.take(tenant, policy, new Date(T0 + offset));
    answers.push({ take, tokens: await tokensOf(tenant) });
  }
  return answers;
}

describe('tokens leased per warm container, on DynamoDB Local', () => {
  it('takes k tokens in one write, k the container’s requests for the tenant in the last second, and serves k-1 from memory', async () => {
    const { repository } = container();

    const answers = await requests(repository, 'tenant-lease', [0, 100, 200, 300, 400, 500, 600]);

    expect(answers.every((a) => a.take.allowed)).toBe(true);
    // 1st: the bucket is created full and one taken (99); 2nd: 2 taken (97), one leased;
    // 3rd: the lease; 4th: 4 taken (93), three leased; 5th–7th: the lease.
    expect(answers.map((a) => a.tokens)).toEqual([99, 97, 97, 93, 93, 93, 93]);
  });

  it(`drops leased tokens not used within ${LEASE_MS} ms: the next request takes from the bucket again`, async () => {
    const { repository } = container();
    await requests(repository, 'tenant-expiry', [0, 10, 20, 30]);
    expect(await tokensOf('tenant-expiry')).toBe(93);

    // Three tokens leased at +30 are gone at +30 + LEASE_MS; demand in that second was one request.
    const [late] = await requests(repository, 'tenant-expiry', [30 + LEASE_MS]);

    expect(late.take.allowed).toBe(true);
    expect(late.tokens).toBe(92);
  });

  it('writes the bucket a tenth as often for a container serving the tenant at 100 requests a second', async () => {
    const { repository, updates } = container();
    const offsets = Array.from({ length: 100 }, (_, n) => n * 10);

    const answers = await requests(repository, 'tenant-busy', offsets, { ratePerSecond: 1_000, burst: 1_000 });

    expect(answers.every((a) => a.take.allowed)).toBe(true);
    // Warming up takes 1, 2, 4, 8, then 10 at a time: 13 writes for 100 requests, the first request's failed take included.
    expect(updates()).toBeLessThanOrEqual(15);
    // Only ever taken, never minted: the bucket holds what 100 requests and at most 9 leased tokens left.
    expect(1_000 - (answers.at(-1)?.tokens ?? 0)).toBeGreaterThanOrEqual(100);
    expect(1_000 - (answers.at(-1)?.tokens ?? 0)).toBeLessThanOrEqual(109);
  });

  it('still refuses a tenant over its rate with 429’s Retry-After, its burst never exceeded by leasing', async () => {
    const { repository } = container();
    const policy = { ratePerSecond: 0.5, burst: 3 };

    const answers = await requests(repository, 'tenant-over', [0, 10, 20, 30, 40], policy);

    expect(answers.map((a) => a.take.allowed)).toEqual([true, true, true, false, false]);
    expect(answers[3]?.take).toEqual({ allowed: false, retryAfterSeconds: 2 });
  });

  it('keeps each container’s lease to itself: a second container takes from the bucket', async () => {
    const first = container();
    const second = container();
    await requests(first.repository, 'tenant-two', [0, 10]);
    expect(await tokensOf('tenant-two')).toBe(97);

    const [answer] = await requests(second.repository, 'tenant-two', [20]);

    expect(answer.take.allowed).toBe(true);
    expect(answer.tokens).toBe(96);
  });
});
