import { randomBytes } from 'node:crypto';

// What the Increase fake (./fake-increase.ts) is started with; each has a default.

/** The fake's secrets, clock, receiving banks, notices, state file and log. */
export interface FakeIncreaseOptions {
  apiKey: string;
  /** The secret as Increase shows it (the SDK keys the HMAC with its raw bytes). */
  webhookSecret: string;
  /** The fake's clock: `created_at` of what it creates. */
  now: () => Date;
  /** The receiving banks answer by the sandbox's numbers, days compressed (see the class). */
  receivingBank: boolean;
  /** Where Increase's webhook goes (the runtime's `/bank/notices`); none: no notice is sent. */
  noticeUrl?: string;
  /** How long after a return its notice is sent. */
  noticeDelayMs: number;
  /** Keep the fake's objects in this file across restarts (`npm start` with `DATA_DIR`); in memory when absent. */
  stateFile?: string;
  /** What the fake tells a developer: every credit, with the statement code in its description, and a refused notice. */
  log: (message: string) => void;
}

/** The options given, over the defaults: a fixed API key, a fresh webhook secret, the real clock, no receiving banks. */
export function withDefaults(options: Partial<FakeIncreaseOptions>): FakeIncreaseOptions {
  return {
    apiKey: 'fake-increase-key',
    webhookSecret: randomBytes(24).toString('hex'),
    now: () => new Date(),
    receivingBank: false,
    noticeDelayMs: 2000,
    log: () => {},
    ...options,
  };
}
