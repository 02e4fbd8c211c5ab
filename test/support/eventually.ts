/**
 * Polls until `check` holds, or `timeoutMs` passed (then answers the last value, for the
 * test's own expectation to fail on): for what comes on a fake's own timer (a provider's
 * notice), not on a call of the test.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 120_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
