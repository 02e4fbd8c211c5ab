import { commandLine } from '#lib/command-line';
import { nodeVersionProblem, startFailure } from '#lib/local/preflight';

// `npm start [-- --tenant <name>]`: the whole service on http://127.0.0.1:${PORT:-3000},
// with its asynchronous pipeline, in memory unless DATA_DIR is set. Prints a ready token,
// a curl example and where the emails go.

// Before anything else loads: an old Node.js gets one sentence and the fix, not a stack trace.
const nodeProblem = nodeVersionProblem(process.versions.node);
if (nodeProblem) {
  console.error(nodeProblem);
  process.exit(1);
}
// Before the runtime's modules load: --help starts nothing.
const values = commandLine(
  `usage: npm start [-- --tenant <name>]
  the whole service on http://127.0.0.1:\${PORT:-3000}, with a token for the tenant (dev by default);
  settings by environment (DATA_DIR, BANK_PROVIDER, FAULTS, …): docs/local.md`,
  { tenant: { type: 'string', default: 'dev' } },
);
const { setLogSink } = await import('#shared/logger');
const { LOCAL_AUDIENCE, LOCAL_ISSUER } = await import('#lib/local/gateway/jwt-issuer');
const { terminalLine } = await import('#lib/local/handler-log');
const { CONSOLE_PATH } = await import('#lib/local/console/console-endpoints');
const { OPENAPI_PATH } = await import('#lib/local/openapi-endpoint');
const { DEFAULT_PORT, startLocalRuntime } = await import('#lib/local/runtime');
const { describeFaultPlan, parseFaultSetting } = await import('#lib/local/faults/fault-plan');

const port = process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}
const dataDir = process.env.DATA_DIR || undefined;
// FAULTS=all=5% (docs/local.md#fault-injection): a share of the handlers' calls fail or slow down.
const faults = process.env.FAULTS ? faultPlanOf(process.env.FAULTS, process.env.FAULT_SEED) : undefined;
// OFAC's files as published (and alerts.csv), where a folder is named; else the sandbox lists.
const screeningLists = process.env.SCREENING_LISTS_DIR || undefined;
// One short line per handler log entry (lib/local/handler-log.ts); LOG_FORMAT=json keeps Lambda's JSON.
if (process.env.LOG_FORMAT !== 'json') {
  setLogSink((line) => {
    const text = terminalLine(line);
    if (text !== undefined) process.stdout.write(`${text}\n`);
  });
}

const runtime = await startLocalRuntime({ port, dataDir, screeningLists, faults }).catch(
  (error: NodeJS.ErrnoException) => {
    console.error(startFailure(error, port));
    process.exit(1);
  },
);
const token = await runtime.mintToken(values.tenant);
const bankLine = runtime.increaseFake
  ? `Bank: the Increase fake on ${runtime.increaseFake.url} (BANK_PROVIDER=increase-fake): ACH by the sandbox's numbers, days compressed, statement codes in this log (docs/local.md)`
  : process.env.BANK_PROVIDER === 'increase'
    ? `Bank: Increase at ${process.env.INCREASE_BASE_URL || `its ${process.env.INCREASE_ENVIRONMENT || 'sandbox'}`} (BANK_PROVIDER=increase)`
    : 'Bank: the sandbox bank, outcomes by account number (docs/sandbox.md)';
const vendorLine = runtime.plaidFake
  ? `Identity vendor: the Plaid fake on ${runtime.plaidFake.url} (IDENTITY_VENDOR=plaid-fake): KYC checks by the SSN's last four digits, answered by signed notices (docs/local.md)`
  : process.env.IDENTITY_VENDOR === 'plaid'
    ? `Identity vendor: Plaid at ${process.env.PLAID_BASE_URL || `its ${process.env.PLAID_ENVIRONMENT || 'sandbox'}`} (IDENTITY_VENDOR=plaid)`
    : 'Identity vendor: the sandbox vendor, outcomes by SSN (docs/sandbox.md#persons)';

console.log(`
Local runtime ready on ${runtime.url}  (table ${runtime.tableName}, ${dataDir ? `data in ${dataDir}` : 'in memory'})
Running on Node.js ${process.version}
Sandbox console: ${runtime.url}${CONSOLE_PATH}    OpenAPI document: ${runtime.url}${OPENAPI_PATH}
JWT issuer ${LOCAL_ISSUER}, audience ${LOCAL_AUDIENCE}
Pipeline: table stream → queues → workers, in-process (timings compressed, see docs/local.md)
${bankLine}
${vendorLine}${runtime.faults ? `\n${describeFaultPlan(runtime.faults.plan)}` : ''}
Emails to account holders are written to ${runtime.outbox.dir}

Token for tenant "${values.tenant}", every scope, valid 12 h (more: npm run --silent token -- --tenant <name>):
export TOKEN='${token}'

curl -sS -X POST ${runtime.url}/verify/accounts \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Service-Version: v2022-09-21" \\
  -H "Content-Type: application/json" \\
  -d '{"account_number":"1234567890","routing_number":"021000021","account_holder_name":"Jane Doe"}'

Ctrl-C stops the server (and DynamoDB Local).
`);

/** The plan FAULTS and FAULT_SEED describe; a bad value stops the start with its one-line reason. */
function faultPlanOf(setting: string, seed: string | undefined) {
  try {
    return parseFaultSetting(setting, seed);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    // A second Ctrl-C means now; the exit hook still kills DynamoDB Local.
    process.exit(130);
  }
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  try {
    await runtime.stop();
    process.exit(0);
  } catch (error) {
    console.error('shutdown failed', error);
    process.exit(1);
  }
}
process.on('SIGINT', (signal) => void shutdown(signal));
process.on('SIGTERM', (signal) => void shutdown(signal));
