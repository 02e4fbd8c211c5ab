// How long an Idempotency-Key is kept (docs/api.md#idempotency), apart from the records'
// repository so that code that only reads the window bundles no idempotency store.

/** 24 h. */
export const IDEMPOTENCY_WINDOW_MS = 86_400_000;
