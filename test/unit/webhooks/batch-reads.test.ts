import { describe, expect, it } from 'vitest';
import { OncePerTenant } from '#functions/webhooks/batch-reads';

describe('a read made once per tenant for a batch', () => {
  it('is shared by every record that asks for the same tenant, even while it is in flight', async () => {
    const asked: string[] = [];
    const reads = new OncePerTenant(async (tenant) => {
      asked.push(tenant);
      return `${tenant}'s`;
    });

    const answers = await Promise.all(['t1', 't1', 't2', 't1', 't2'].map((tenant) => reads.of(tenant)));

    expect(answers).toEqual(["t1's", "t1's", "t2's", "t1's", "t2's"]);
    expect(asked).toEqual(['t1', 't2']);
  });

  it('is made again after it failed, so one throttled read does not fail the rest of the batch', async () => {
    let calls = 0;
    const reads = new OncePerTenant(async () => {
      calls += 1;
      if (calls === 1) throw new Error('throttled');
      return 'read';
    });

    await expect(reads.of('t1')).rejects.toThrow('throttled');
    expect(await reads.of('t1')).toBe('read');
    expect(await reads.of('t1')).toBe('read');
    expect(calls).toBe(2);
  });
});
