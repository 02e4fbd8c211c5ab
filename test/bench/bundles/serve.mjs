// One function's warm life: imports its bundle once (a cold start) and serves the
// invocations of an NDJSON file one after another, as one Lambda execution environment
// does, then reports how each ended, the process's peak RSS, and its cold start: the
// import and the first invocation, each timed from inside (process start and exit are
// outside), with the requests its first invocation sent (by AWS operation, or by the
// service its endpoint is). Plain JavaScript, so the process holds nothing but Node, the
// bundle and this loop (a TypeScript loader would count towards the RSS).
//
// usage: node serve.mjs <bundle> <events.ndjson> <function name> <timeout ms>
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { createReadStream, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [bundle, eventsFile, functionName, timeoutArg] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg);

/** Endpoint host → the service it is (`AWS_ENDPOINT_URL_STS` → `STS`, …). */
const services = new Map(
  Object.entries(process.env)
    .filter(([name, value]) => name.startsWith('AWS_ENDPOINT_URL_') && value)
    .map(([name, value]) => [new URL(value).host, name.slice('AWS_ENDPOINT_URL_'.length)]),
);
/** The first invocation's requests: DynamoDB and SQS by operation (`X-Amz-Target`), others by service or host. */
const firstCalls = {};
let counting = false;
subscribe('http.client.request.start', ({ request }) => {
  if (!counting) return;
  const target = request.getHeader('x-amz-target');
  const host = String(request.getHeader('host') ?? request.host);
  const name = typeof target === 'string' ? target.split('.').pop() : (services.get(host) ?? `HTTP ${host}`);
  firstCalls[name] = (firstCalls[name] ?? 0) + 1;
});

const importStarted = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const importMs = performance.now() - importStarted;
if (typeof handler !== 'function') throw new Error(`${bundle} exports no handler`);

/** What an invocation came to: the HTTP status, or whether a batch or a run failed. */
function outcomeOf(result) {
  if (result && typeof result.statusCode === 'number') return String(result.statusCode);
  if (result && Array.isArray(result.batchItemFailures)) {
    return result.batchItemFailures.length === 0 ? 'ok' : 'batch item failures';
  }
  return 'ok';
}

function context() {
  const awsRequestId = randomUUID();
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `bench/[$LATEST]${awsRequestId.replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}

const outcomes = {};
const errors = new Set();
let invocations = 0;
let firstMs = 0;
const started = performance.now();
for await (const line of createInterface({
  input: createReadStream(eventsFile),
  crlfDelay: Number.POSITIVE_INFINITY,
})) {
  if (line === '') continue;
  let outcome;
  const event = JSON.parse(line);
  const invoked = performance.now();
  counting = invocations === 0;
  try {
    outcome = outcomeOf(await handler(event, context()));
  } catch (error) {
    outcome = 'threw';
    if (errors.size < 3) errors.add(String(error?.stack ?? error).slice(0, 400));
  }
  if (invocations === 0) firstMs = performance.now() - invoked;
  counting = false;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  invocations++;
}
const report = {
  invocations,
  outcomes,
  errors: [...errors],
  ms: performance.now() - started,
  importMs,
  firstMs,
  firstCalls,
  cpuMs: (({ user, system }) => (user + system) / 1000)(process.cpuUsage()),
  maxRssKb: process.resourceUsage().maxRSS,
};
// To fd 3: stdout belongs to the function (its log lines).
writeSync(3, JSON.stringify(report));
process.exit(0);
