// Bounds on `POST /events/{id}/redeliver` (docs/api.md#redelivery-limits). Each redelivery
// makes the shared delivery pool POST the event to every subscribed configuration (up to
// 10, each with up to 7 attempts) and records those attempts beside the event, so both the
// event and the tenant are paced.
//
// Each bound is a generic cell rate algorithm (GCRA): one stored number, the theoretical
// arrival time `tat` (epoch ms). A request at `now` is admitted when `tat` is at most
// `(burst - 1) × interval` ahead of `now`, and moves `tat` one interval on. So `burst`
// requests may come at once, then one per `interval`, never more in any window. Unlike a
// token bucket, admitting is one atomic `SET tat = tat + interval` on condition that `tat`
// is in range: concurrent requests never refuse each other while the bound has room.

export interface PacedLimit {
  /** Requests admitted at once. */
  readonly burst: number;
  /** Then one per this many milliseconds. */
  readonly intervalMs: number;
}

/** One event: 5 at once, then one every 4.8 hours (5 a day). */
export const EVENT_REDELIVERIES: PacedLimit = { burst: 5, intervalMs: (24 * 3_600_000) / 5 };

/**
 * One tenant, across its events and its test events (`POST /webhooks/invoke`, which fan out
 * just as a redelivery does): 10 at once, then one a second, for both together. At most ~10
 * deliveries a second into the shared pool (10 configurations each), ~3,600 events an hour
 * replayed or sent.
 */
export const TENANT_REDELIVERIES: PacedLimit = { burst: 10, intervalMs: 1_000 };

/** `start`: the bound was idle (`tat` absent or past), `tat` becomes now + interval; `advance`: `tat` + interval. */
export type Admission =
  | { readonly allowed: true; readonly write: 'start' | 'advance' }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Whether a request at `nowMs` is admitted, given the stored `tatMs`. Pure: the clock is passed in. */
export function admit(tatMs: number | undefined, limit: PacedLimit, nowMs: number): Admission {
  if (tatMs === undefined || tatMs < nowMs) return { allowed: true, write: 'start' };
  const wait = tatMs - nowMs - (limit.burst - 1) * limit.intervalMs;
  if (wait > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
  return { allowed: true, write: 'advance' };
}

/** The latest `tat` that still admits a request at `nowMs`: the `advance` write's condition. */
export const latestAdmitted = (limit: PacedLimit, nowMs: number): number =>
  nowMs + (limit.burst - 1) * limit.intervalMs;
