/**
 * How `npm start` shows the handlers' JSON log lines in a terminal: one short line each,
 * without the fields Powertools adds for CloudWatch (function ARN, memory size, sampling
 * rate, …), and without the handlers' "request completed" line, which the gateway's own
 * access line (method, path, status, latency, route, tenant) already says.
 * `LOG_FORMAT=json` keeps the lines exactly as Lambda would write them.
 */

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

/** Handler messages the gateway's access line already carries. */
const SAID_BY_THE_GATEWAY = new Set(['request completed']);

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
  const fields = Object.entries(entry)
    .filter(([name, value]) => !CLOUDWATCH_FIELDS.has(name) && value !== undefined && value !== source)
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [
    time,
    String(entry.level ?? 'INFO')
      .toUpperCase()
      .padEnd(5),
    ...(source ? [`[${source}]`] : []),
    String(entry.message ?? ''),
    ...fields,
  ]
    .filter((part) => part !== '')
    .join(' ');
}
