/**
 * Answers a warm container keeps for a while (a client id's tenant, a tenant's rate
 * policy), each with its own lifetime. Bounded: past `maxEntries` the entry stored longest
 * ago goes first, so a stream of distinct keys (tokens of unknown clients, say) costs a
 * fixed amount of memory, never a growing one.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(private readonly maxEntries: number) {}

  /** The value stored for `key` unless it expired by `now` (epoch ms). */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number, now: number): void {
    // Map keeps insertion order: re-inserting makes the first key the one stored longest ago.
    this.entries.delete(key);
    this.entries.set(key, { value, until: now + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
