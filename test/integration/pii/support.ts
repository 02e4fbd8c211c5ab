import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';
import type { LogLevel } from '#lib/local/log';
import type { LocalRuntime } from '#lib/local/runtime';
import { documentClient } from '#shared/db/document-client';
import { setLogSink } from '#shared/logger';
import { type ApiResponse, api, type RequestOptions } from '../harness';

/**
 * What the PII test needs besides its scenarios: the secret values and the forms they may
 * take, a capture of every place a value could surface (log lines, console, responses),
 * and a search that finds a value only as itself, not inside a longer token.
 */

export interface Secret {
  /** What it is, for the failure message (never the value itself). */
  readonly label: string;
  /** Every written form: raw digits, dashed, … */
  readonly forms: readonly string[];
}

const ssn = (label: string, dashed: string): Secret => ({ label, forms: [dashed, dashed.replaceAll('-', '')] });

/** Valid by SSA rules, so identification runs its every check on them. */
export const SSNS = {
  person: ssn('SSN of a created person', '587-23-9146'),
  patched: ssn('SSN given by PATCH', '412-67-3058'),
  replaced: ssn('SSN given by PUT', '529-84-1067'),
  upserted: ssn('SSN given by PUT /persons', '634-19-2785'),
  // Area 666 breaks SSA rules: identification rejects it (an error path of the worker).
  rejected: ssn('SSN that identification rejects', '666-41-2290'),
  owner: ssn('SSN of an account owner', '478-12-0953'),
  stray: ssn('SSN sent where it does not belong', '245-71-8836'),
};
export const EIN: Secret = { label: 'tax id (EIN)', forms: ['83-9201746', '839201746'] };
export const STRAY_EIN: Secret = { label: 'tax id sent where it does not belong', forms: ['27-5830914', '275830914'] };

/** Account numbers: returned to their owner and carried by its events, never logged or put in a key. */
export const ACCOUNT_NUMBERS = {
  status: '73120458963',
  ownership: '73120452617',
  business: '73120459382',
  // Ends 1111: the sandbox bank answers invalid (an error path of the verification worker).
  invalid: '73120451111',
  control: '73120457784',
  limited: '73120456425',
};
export const ACCOUNT_NUMBER_SECRETS: Secret[] = Object.entries(ACCOUNT_NUMBERS).map(([name, value]) => ({
  label: `account number (${name})`,
  forms: [value],
}));

/** Wrong statement codes a caller sends (the sandbox's right one, `0000`, is no secret). */
export const STATEMENT_CODES: Secret[] = ['K9QZ', 'ZX7Q', 'B4RT'].map((code) => ({
  label: 'statement code',
  forms: [code, code.toLowerCase()],
}));

/** Where the test looked, each with what it found there. */
export interface Haystack {
  readonly where: string;
  readonly text: string;
}

function pattern(form: string): RegExp {
  const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Only the value as itself: a 4-character code must not "leak" inside a random base64 id.
  const before = /^[A-Za-z0-9]/.test(form) ? '(?<![A-Za-z0-9])' : '';
  const after = /[A-Za-z0-9]$/.test(form) ? '(?![A-Za-z0-9])' : '';
  return new RegExp(`${before}${escaped}${after}`);
}

/** `where: label` for each secret found in a haystack; empty when nothing leaked. */
export function leaks(haystacks: readonly Haystack[], secrets: readonly Secret[]): string[] {
  const found: string[] = [];
  for (const { where, text } of haystacks) {
    for (const secret of secrets) {
      if (secret.forms.some((form) => pattern(form).test(text))) found.push(`${where}: ${secret.label}`);
    }
  }
  return found;
}

/**
 * Every line the functions log (through the logger's sink), everything written to the
 * console or straight to stdout/stderr, and every line of the runtime's own log.
 */
export function captureLogs() {
  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(`console.${method} ${args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg))).join(' ')}`);
    }),
  );
  const streams = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    return () => {
      stream.write = write;
    };
  });
  const runtimeLog = (level: LogLevel, message: string, details?: Record<string, unknown>) => {
    lines.push(`runtime ${level} ${message} ${inspect(details)}`);
  };
  return {
    lines,
    runtimeLog,
    restore: () => {
      setLogSink(undefined);
      for (const spy of consoleSpies) spy.mockRestore();
      for (const restore of streams) restore();
    },
  };
}

function inspect(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack}`;
  try {
    return JSON.stringify(value, (_key, v) => (v instanceof Error ? { message: v.message, stack: v.stack } : v));
  } catch {
    return String(value);
  }
}

export interface Exchange {
  readonly request: string;
  readonly response: ApiResponse;
}

/** `api()` that keeps every exchange, to search the answers afterwards. */
export function recordingApi(runtime: LocalRuntime, token: string | undefined, exchanges: Exchange[]) {
  const client = api(runtime, token);
  const request = async (method: string, path: string, options: RequestOptions = {}) => {
    const response = await client.request(method, path, options);
    exchanges.push({ request: `${method} ${path.split('?')[0]}`, response });
    return response;
  };
  return {
    request,
    get: (path: string, options?: RequestOptions) => request('GET', path, options),
    post: (path: string, body?: unknown, options?: RequestOptions) => request('POST', path, { ...options, body }),
    put: (path: string, body?: unknown, options?: RequestOptions) => request('PUT', path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: RequestOptions) => request('PATCH', path, { ...options, body }),
    delete: (path: string, options?: RequestOptions) => request('DELETE', path, options),
  };
}
export type RecordingApi = ReturnType<typeof recordingApi>;

/** Every item of the table, as DynamoDB holds it. */
export async function scanTable(runtime: LocalRuntime): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: runtime.tableName, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** The key attributes of an item (table and index keys), where values are findable by anyone with Scan or Query. */
export const keyAttributes = (item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).filter(([name]) => /^(pk|sk|gsi\d+(pk|sk))$/.test(name)));
