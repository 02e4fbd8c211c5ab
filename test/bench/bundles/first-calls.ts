// The requests a function's first invocation sent, over its cold processes (./cold-request.ts).

/** The set of calls most processes sent (ties: the first seen), in a stable key order. */
export function mostCommon(calls: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const counted = new Map<string, { calls: Record<string, number>; n: number }>();
  for (const one of calls) {
    const sorted = Object.fromEntries(Object.entries(one).sort(([a], [b]) => a.localeCompare(b)));
    const key = JSON.stringify(sorted);
    const seen = counted.get(key);
    counted.set(key, { calls: sorted, n: (seen?.n ?? 0) + 1 });
  }
  let best: { calls: Record<string, number>; n: number } | undefined;
  for (const candidate of counted.values()) if (!best || candidate.n > best.n) best = candidate;
  return best?.calls ?? {};
}
