// The local runtime's own log (start-up, access log, handler failures). Handlers log
// through their own logger; this one only has to be readable in a terminal and easy to
// silence or capture in tests.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type RuntimeLog = (level: LogLevel, message: string, details?: Record<string, unknown>) => void;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function consoleLog(minLevel: LogLevel = 'info'): RuntimeLog {
  return (level, message, details = {}) => {
    if (RANK[level] < RANK[minLevel]) return;
    const errors = Object.values(details).filter((value): value is Error => value instanceof Error);
    const fields = Object.entries(details)
      .filter(([, value]) => !(value instanceof Error))
      .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    const line = [new Date().toISOString().slice(11, 23), level.toUpperCase().padEnd(5), message, ...fields].join(' ');
    const write = level === 'error' || level === 'warn' ? console.error : console.log;
    write([line, ...errors.map((error) => error.stack ?? String(error))].join('\n'));
  };
}

export const silentLog: RuntimeLog = () => {};

/** A thrown value as one log- and test-friendly line. */
export const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** `LOG_LEVEL` is also what handlers read (functions/shared/config.ts), so one knob tunes both. */
export function logLevelFromEnv(value: string | undefined): LogLevel {
  return value === 'debug' || value === 'warn' || value === 'error' ? value : 'info';
}
