import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '#shared/expiring-cache';

describe('ExpiringCache', () => {
  it('answers a value until its own lifetime ends, then nothing', () => {
    const cache = new ExpiringCache<string | null>(10);
    cache.set('known', 'acme', 300_000, 0);
    cache.set('unknown', null, 30_000, 0);

    expect(cache.get('known', 29_999)).toBe('acme');
    expect(cache.get('unknown', 29_999)).toBeNull();
    expect(cache.get('unknown', 30_000)).toBeUndefined();
    expect(cache.get('known', 300_000)).toBeUndefined();
  });

  it('holds at most its bound: a stream of distinct keys drops the one stored longest ago', () => {
    const cache = new ExpiringCache<number>(3);
    for (let n = 0; n < 1_000; n++) cache.set(`client-${n}`, n, 60_000, 0);

    expect(cache.size).toBe(3);
    expect(cache.get('client-996', 1)).toBeUndefined();
    expect(cache.get('client-999', 1)).toBe(999);
  });

  it('counts a value stored again as new, so it outlives keys stored since its first store', () => {
    const cache = new ExpiringCache<number>(2);
    cache.set('a', 1, 60_000, 0);
    cache.set('b', 2, 60_000, 0);
    cache.set('a', 3, 60_000, 1);
    cache.set('c', 4, 60_000, 2);

    expect(cache.get('a', 3)).toBe(3);
    expect(cache.get('b', 3)).toBeUndefined();
  });
});
