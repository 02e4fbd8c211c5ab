import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogItem } from '@aws-lambda-powertools/logger';
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { ENV, optionalEnv, serviceName } from './config';

// Structured JSON logs, one line per entry, written by Powertools for AWS Lambda's Logger
// (level, message, timestamp, service, and — once an invocation's Lambda context is known —
// its request id `function_request_id` and `cold_start`). Call sites see only the small
// `Logger` below, so the implementation can change without touching them.
//
// Values under sensitive keys are replaced while the line is serialized (Powertools'
// `jsonReplacerFn`), wherever they are nested — in fields, in an Error's own properties, in
// arrays — so a careless `logger.info` cannot leak an SSN, a tax id, an account number, a
// statement code or a secret.

export const SENSITIVE_KEY =
  /ssn|social_security|tax_id|account_number|statement_code|secret|password|authorization|token|ciphertext|api_?key/i;
export const REDACTED = '[redacted]';

/** The JSON replacer every log line is serialized with: a sensitive key's value never reaches the line. */
export function redactSensitive(key: string, value: unknown): unknown {
  return key !== '' && SENSITIVE_KEY.test(key) ? REDACTED : value;
}

/** A value as it would appear in a log line: sensitive keys redacted at any depth, errors as name/message/stack. */
export function redact(value: unknown): unknown {
  const text = JSON.stringify(value, function (this: unknown, key: string, raw: unknown) {
    const replaced = redactSensitive(key, raw);
    return replaced instanceof Error
      ? { name: replaced.name, message: replaced.message, stack: replaced.stack }
      : replaced;
  });
  return text === undefined ? undefined : JSON.parse(text);
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

type Sink = (line: string) => void;
let sink: Sink | undefined;

/**
 * Tests capture log lines to prove what is (not) written: with a sink set, every line
 * Powertools would print — serialized exactly as it would be, redaction included — goes to
 * the sink instead of stdout. `undefined` restores Powertools' own output.
 */
export function setLogSink(next: Sink | undefined): void {
  sink = next;
}

/** Powertools' Logger, printing through the test sink when one is set. */
class ServiceLogger extends PowertoolsLogger {
  protected override printLog(logLevel: number, log: LogItem): void {
    if (!sink) {
      super.printLog(logLevel, log);
      return;
    }
    log.prepareForPrint();
    sink(JSON.stringify(log.getAttributes(), this.getJsonReplacer()));
  }
}

type PowertoolsLevel = NonNullable<ConstructorParameters<typeof PowertoolsLogger>[0]>['logLevel'];
let root: ServiceLogger | undefined;

/**
 * One Powertools Logger per process, made on first use (after the runtime has set the
 * environment). `LOG_LEVEL` is the project's knob (`debug` … `error`, lower case in the
 * CDK stack and the local runtime); Powertools wants it upper case.
 */
function rootLogger(): ServiceLogger {
  root ??= new ServiceLogger({
    serviceName: serviceName(),
    logLevel: (optionalEnv(ENV.logLevel) ?? 'info').toUpperCase() as PowertoolsLevel,
    jsonReplacerFn: redactSensitive,
  });
  return root;
}

/**
 * The Lambda context of the invocation a line belongs to. Lambda runs one invocation at a
 * time per process, but the local runtime runs several side by side in one process: the
 * context travels with the invocation's async calls, and the process-wide logger is
 * handed the right one before each line, so no line names another invocation's request.
 */
const invocationContext = new AsyncLocalStorage<Context>();
let applied: Context | undefined;

function apply(context: Context): void {
  if (context === applied) return;
  // Powertools marks the first context it is given as the cold start.
  rootLogger().addContext(context);
  applied = context;
}

/** Runs an invocation with its Lambda context (request id, cold start, function) on every line it writes. */
export function withLogContext<R>(context: Context | undefined, fn: () => R): R {
  if (!context) return fn();
  apply(context);
  return invocationContext.run(context, fn);
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => {
    const context = invocationContext.getStore();
    if (context) apply(context);
    rootLogger()[level](message, fields ? { ...base, ...fields } : base);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}
