import { afterEach, beforeEach } from 'vitest';
import { setLogSink } from '#shared/logger';

/**
 * Captures the log lines the code under test writes, parsed. Call once at the top of a
 * test file; the returned array is emptied before each test.
 */
export function captureLogs(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  beforeEach(() => {
    lines.length = 0;
    setLogSink((line) => lines.push(JSON.parse(line)));
  });
  afterEach(() => setLogSink(undefined));
  return lines;
}
