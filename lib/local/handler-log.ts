// How `npm start` shows the handlers' JSON log lines in a terminal: one short line each,
// without the fields Powertools adds for CloudWatch (function ARN, memory size, sampling
// rate, …), and without the handlers' "request completed" line, which the gateway's own
// access line (method, path, status, latency, route, tenant) already says.
// `LOG_FORMAT=json` keeps the lines exactly as Lambda would write them.

/** Fields that matter in CloudWatch, not in a terminal. */
const CLOUDWATCH_FIELDS = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
  'sampling_rate',
  'xray_trace_id',
]);

/**
 * Queue plumbing that a terminal reader does not need on every line: the worker is the
 * function already shown, and a first receive is the normal case (a retry's count stays).
 */
const PLUMBING = (name: string, value: unknown) =>
  name === 'worker' || name === 'message_id' || (name === 'receive_count' && value === 1);

/** Handler messages the gateway's access line already carries. */
const SAID_BY_THE_GATEWAY = new Set(['request completed']);

/**
 * Messages with a short form of their own: a webhook delivery attempt reads like the
 * gateway's access line (what, outcome, latency), with the event id to look it up by.
 */
const SHORT_FORMS: Partial<Record<string, (entry: Record<string, unknown>) => string>> = {
  'webhook delivery attempt': (entry) =>
    `webhook ${entry.event_id} attempt ${entry.attempt} -> ${entry.status_code ?? 'no answer'} ${entry.latency_ms} ms` +
    `${entry.error ? ` error=${JSON.stringify(entry.error)}` : ''} tenant=${entry.tenant}`,
};

/** The terminal form of one handler log line; `undefined` when the line adds nothing. */
export function terminalLine(line: string): string | undefined {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return line;
  if (SAID_BY_THE_GATEWAY.has(String(entry.message))) return undefined;
  const time = typeof entry.timestamp === 'string' ? entry.timestamp.slice(11, 23) : '';
  const source = entry.function_name ?? entry.worker ?? entry.route;
  const shortForm = SHORT_FORMS[String(entry.message)];
  const fields = shortForm
    ? []
    : Object.entries(entry)
        .filter(([name, value]) => !CLOUDWATCH_FIELDS.has(name) && !PLUMBING(name, value) && value !== undefined)
        .filter(([, value]) => value !== source)
        .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [
    time,
    String(entry.level ?? 'INFO')
      .toUpperCase()
      .padEnd(5),
    ...(source ? [`[${source}]`] : []),
    shortForm ? shortForm(entry) : String(entry.message ?? ''),
    ...fields,
  ]
    .filter((part) => part !== '')
    .join(' ');
}
