import { setDependencies } from '#shared/dependencies';

/**
 * Stops the service's clock (the `now` port) at `start` until `restart()`: whatever the
 * test sends meanwhile happens at one instant, however long the machine takes to serve it,
 * and `advance(ms)` moves the clock on without waiting. For the limits paced by time (the
 * rate limit, redelivery and test-event pacing), whose answers to a burst would otherwise
 * depend on how fast the machine serves the burst.
 */
export function stopClock(start = new Date()) {
  let at = start.getTime();
  setDependencies({ now: () => new Date(at) });
  return {
    advance: (ms: number) => {
      at += ms;
    },
    restart: () => setDependencies({ now: undefined }),
  };
}
