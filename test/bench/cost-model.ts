/**
 * The on-demand AWS bill of one verification, from what it was measured to ask of each
 * service (test/bench/cost.ts). Pure: usage in, priced lines out, so another verification
 * type or another line is a new input, not a new model.
 */

/**
 * Public us-east-1 on-demand prices, USD, beyond the free tiers, as the AWS pricing pages
 * publish them. Taken as of 2026-11-23 from the author's knowledge of those pages (the
 * bench machine has no network): DynamoDB's are the ones since its on-demand price cut of
 * 2024-11-01, the others unchanged since 2020–2023. Re-check before quoting a figure.
 */
export const PRICES = {
  asOf: '2026-11-23',
  dynamodb: {
    /** Standard table class, on-demand. A transactional write is billed as two. */
    usdPerMillionWriteRequestUnits: 0.625,
    usdPerMillionReadRequestUnits: 0.125,
  },
  lambda: {
    usdPerMillionRequests: 0.2,
    /** Arm (Graviton), first 7.5 billion GB-seconds a month. */
    usdPerGbSecondArm: 0.000_013_333_4,
  },
  sqs: {
    /** Standard queues; each 64 KB chunk of a request's payload is one request. */
    usdPerMillionRequests: 0.4,
  },
  apiGateway: {
    /** HTTP APIs, first 300 million requests a month (each 512 KB a request). */
    usdPerMillionHttpApiRequests: 1.0,
  },
  kms: {
    /** Symmetric requests (Encrypt, Decrypt, GenerateDataKey); the key's $1 a month is not per verification. */
    usdPerTenThousandRequests: 0.03,
  },
  ses: {
    /** Outbound email (the account holder's statement-code notice). */
    usdPerThousandEmails: 0.1,
  },
  cloudWatchLogs: {
    /** Standard log class ingestion (Lambda's logs: the first tier of its vended-log pricing). */
    usdPerGbIngested: 0.5,
  },
  xray: {
    usdPerMillionTracesRecorded: 5.0,
  },
  dataTransfer: {
    /** Out to the internet, first 10 TB a month (the webhook POSTs and the API's answers). */
    usdPerGbOut: 0.09,
  },
} as const;

/** How the stack runs the functions (lib/constructs/service-function.ts) and how AWS bills around them. */
export const MODEL = {
  /** Every function: 512 MB on Arm. */
  lambdaMemoryGb: 512 / 1024,
  /**
   * Lambda's own lines per invocation in its text log format (START ~70 bytes, END ~55,
   * REPORT with the X-Ray trace fields ~240), with CloudWatch Logs' 26 bytes per event.
   */
  platformLogBytesPerInvocation: 70 + 55 + 240 + 3 * 26,
  /** Per handler log line: CloudWatch Logs' per-event overhead. */
  logEventOverheadBytes: 26,
  /**
   * Active tracing samples 1 request a second and 5 % of the rest (Lambda's default
   * rule). The 1 a second is a fixed ~2.6 million traces a month whatever the traffic, so
   * the cost that grows with verifications is 5 % of invocations.
   */
  xrayTracedFraction: 0.05,
} as const;

/** What one verification asks of AWS (averages over the measured verifications). */
export interface Usage {
  readonly dynamodb: { readonly writeRequestUnits: number; readonly readRequestUnits: number };
  readonly lambda: { readonly invocations: number; readonly gbSeconds: number };
  /**
   * Sends (SendMessageBatch by the functions), and the receives and deletes of Lambda's
   * SQS pollers, which AWS bills to the queue's owner: one ReceiveMessage that returns a
   * batch and one DeleteMessageBatch after the function succeeds, per invocation. Idle
   * long polls (a few million a month for the service's queues together) are a fixed
   * cost, not per verification.
   */
  readonly sqs: { readonly sendRequests: number; readonly receiveRequests: number; readonly deleteRequests: number };
  readonly kms: { readonly requests: number };
  readonly ses: { readonly emails: number };
  readonly apiGateway: { readonly requests: number };
  readonly logs: { readonly bytes: number };
  readonly xray: { readonly traces: number };
  readonly dataTransfer: { readonly bytesOut: number };
}

/** One line of the bill: how much of something one verification uses, and what a million cost. */
export interface PricedLine {
  readonly service: string;
  readonly kind: string;
  readonly perVerification: number;
  readonly unit: string;
  readonly usdPerMillion: number;
}

const GB = 1024 ** 3;

/** Every line of the bill of a million verifications of this usage. */
export function priceUsage(usage: Usage): PricedLine[] {
  const line = (service: string, kind: string, perVerification: number, unit: string, usdPerUnit: number) => ({
    service,
    kind,
    perVerification,
    unit,
    usdPerMillion: perVerification * usdPerUnit * 1e6,
  });
  const perMillion = (usd: number) => usd / 1e6;
  const sqsUnit = perMillion(PRICES.sqs.usdPerMillionRequests);
  return [
    line(
      'dynamodb',
      'write',
      usage.dynamodb.writeRequestUnits,
      'WRU',
      perMillion(PRICES.dynamodb.usdPerMillionWriteRequestUnits),
    ),
    line(
      'dynamodb',
      'read',
      usage.dynamodb.readRequestUnits,
      'RRU',
      perMillion(PRICES.dynamodb.usdPerMillionReadRequestUnits),
    ),
    line(
      'lambda',
      'requests',
      usage.lambda.invocations,
      'invocations',
      perMillion(PRICES.lambda.usdPerMillionRequests),
    ),
    line('lambda', 'compute', usage.lambda.gbSeconds, 'GB-s', PRICES.lambda.usdPerGbSecondArm),
    line('sqs', 'send', usage.sqs.sendRequests, 'requests', sqsUnit),
    line('sqs', 'receive', usage.sqs.receiveRequests, 'requests', sqsUnit),
    line('sqs', 'delete', usage.sqs.deleteRequests, 'requests', sqsUnit),
    line('kms', 'requests', usage.kms.requests, 'requests', PRICES.kms.usdPerTenThousandRequests / 10_000),
    line('ses', 'emails', usage.ses.emails, 'emails', PRICES.ses.usdPerThousandEmails / 1_000),
    line(
      'api_gateway',
      'requests',
      usage.apiGateway.requests,
      'requests',
      perMillion(PRICES.apiGateway.usdPerMillionHttpApiRequests),
    ),
    line('cloudwatch_logs', 'ingestion', usage.logs.bytes, 'bytes', PRICES.cloudWatchLogs.usdPerGbIngested / GB),
    line('xray', 'traces', usage.xray.traces, 'traces', perMillion(PRICES.xray.usdPerMillionTracesRecorded)),
    line('data_transfer', 'out', usage.dataTransfer.bytesOut, 'bytes', PRICES.dataTransfer.usdPerGbOut / GB),
  ];
}

/**
 * The services whose requests the cost goal counts (issue 11's model: DynamoDB capacity,
 * Lambda invocations and their compute, SQS, KMS and API requests; SES emails, which only
 * the control types send). Log ingestion,
 * tracing and data transfer are priced too, in the all-in figure: real, but they depend on
 * log levels and sampling settings more than on the service's design.
 */
export const REQUEST_SERVICES: ReadonlySet<string> = new Set([
  'dynamodb',
  'lambda',
  'sqs',
  'kms',
  'ses',
  'api_gateway',
]);

export const totalUsdPerMillion = (lines: readonly PricedLine[]): number =>
  lines.reduce((sum, line) => sum + line.usdPerMillion, 0);

/** The goal's figure: the lines of REQUEST_SERVICES only. */
export const requestsUsdPerMillion = (lines: readonly PricedLine[]): number =>
  totalUsdPerMillion(lines.filter((line) => REQUEST_SERVICES.has(line.service)));
