import { ENV, optionalEnv } from './config';

/**
 * Structured JSON logs, one line per entry. Values under sensitive keys are replaced
 * before anything is written, wherever they are nested, so a careless `logger.info`
 * cannot leak an SSN, a tax id, an account number, a statement code or a secret.
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

const SENSITIVE_KEY =
  /ssn|social_security|tax_id|account_number|statement_code|secret|password|authorization|token|ciphertext/i;
export const REDACTED = '[redacted]';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[truncated]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SENSITIVE_KEY.test(k) ? REDACTED : redact(v, depth + 1)]),
    );
  }
  return value;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

type Sink = (line: string) => void;
let sink: Sink = (line) => process.stdout.write(`${line}\n`);

/** Tests capture log lines to prove what is (not) written. */
export function setLogSink(next: Sink | undefined): void {
  sink = next ?? ((line) => process.stdout.write(`${line}\n`));
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const threshold = LEVELS[(optionalEnv(ENV.logLevel) as Level | undefined) ?? 'info'] ?? LEVELS.info;
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[level] < threshold) return;
    sink(
      JSON.stringify({ level, time: new Date().toISOString(), message, ...(redact({ ...base, ...fields }) as object) }),
    );
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}
