import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { applyBankOutcome } from '#functions/verify-accounts/bank-outcome';
import { FakeIncrease } from '#lib/local/fake-increase';
import type { LocalRuntime, LocalRuntimeOptions } from '#lib/local/runtime';
import { CONSUMERS, type ConsumerDefinition } from '#lib/service/index';
import type { BankProvider } from '#shared/bank/bank-provider';
import { IncreaseBank } from '#shared/bank/increase/increase-bank';
import { bank } from '#shared/bank/index';
import { documentClient } from '#shared/db/document-client';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { setDependencies } from '#shared/dependencies';
import { createLogger } from '#shared/logger';
import { flushMetrics } from '#shared/metrics';
import { api, startTestRuntime } from '../harness';

/** A valid create body; account numbers must differ between accounts of a test (5-per-24h limit). */
export const accountBody = (over: Record<string, unknown> = {}) => ({
  account_number: '1234567890',
  routing_number: '021000021',
  account_holder_name: 'Jane Doe',
  ...over,
});

let counter = 0;
/** A fresh account number ending in digits the sandbox treats as `valid`. */
export const freshAccountNumber = (): string =>
  `${Date.now() % 1_000_000}${String(++counter).padStart(4, '0')}6789`.slice(-15);

export async function clientsFor(runtime: LocalRuntime) {
  return {
    alice: api(runtime, await runtime.mintToken('tenant-alice')),
    bob: api(runtime, await runtime.mintToken('tenant-bob')),
    readOnly: api(runtime, await runtime.mintToken('tenant-alice', ['read:verify-accounts'])),
    anonymous: api(runtime),
  };
}

/** The raw stored item, as DynamoDB holds it. */
export async function storedItem(runtime: LocalRuntime, tenant: string, id: string) {
  const out = await documentClient().send(
    new GetCommand({ TableName: runtime.tableName, Key: accountKeys.account(tenant, id) }),
  );
  return out.Item;
}

/**
 * A runtime for the whole test file, with clients for two tenants, a read-only token and
 * no token. Read `runtime` and `clients` inside tests (they exist once `beforeAll` ran).
 */
export function useVerifyRuntime(options: Partial<LocalRuntimeOptions> = {}) {
  const env = {} as { runtime: LocalRuntime; clients: Awaited<ReturnType<typeof clientsFor>> };
  beforeAll(async () => {
    env.runtime = await startTestRuntime(options);
    env.clients = await clientsFor(env.runtime);
  });
  afterAll(() => env.runtime?.stop());
  return env;
}

/**
 * `useVerifyRuntime` with a bank on rails put in place before each test (`bank()` builds
 * it) and taken away after, and the helpers every rails test uses: `created`, an account of
 * Alice's once the pipeline has run (the rails leave it pending), and `account`, as read now.
 */
export function useRailsRuntime(bank: () => BankProvider, options: Partial<LocalRuntimeOptions> = {}) {
  const env = useVerifyRuntime(options);
  beforeEach(() => setDependencies({ bank: bank() }));
  afterEach(() => setDependencies({ bank: undefined }));
  async function created(over: Record<string, unknown> = {}): Promise<string> {
    const answer = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber(), ...over }),
    );
    expect(answer.status).toBe(200);
    await env.runtime.settle();
    return answer.body.account.id as string;
  }
  const account = async (id: string) => (await env.clients.alice.get(`/verify/accounts/${id}`)).body.account;
  /** The hourly BankReturnWindows now, and what it set off: the checks whose window ended are settled. */
  async function windowsEnded(): Promise<void> {
    await env.runtime.runSchedule('BankReturnWindows');
    await env.runtime.settle();
  }
  return { env, created, account, windowsEnded };
}

const DAY_MS = 24 * 3600_000;

/**
 * The service's consumers with these schedules' own timers turned off (a day apart): the
 * test runs them (`runSchedule`), so what they find does not depend on how fast the
 * machine is.
 */
export function schedulesRunByTheTest(...ids: string[]): ConsumerDefinition[] {
  return CONSUMERS.map((consumer) =>
    ids.includes(consumer.id) && consumer.source.kind === 'schedule'
      ? { ...consumer, source: { ...consumer.source, localEveryMs: DAY_MS } }
      : consumer,
  );
}

/** What a return saying the account is closed (R02) makes of it. */
export const CLOSED = {
  verification_status: 'closed',
  status_reason: 'closed_account',
  debit_status: 'failed',
  debit_status_reason: 'closed_account',
} as const;

/**
 * `useRailsRuntime` on the Increase adapter and a local fake of Increase (lib/local/fake-increase.ts,
 * started once for the file: `increase.fake`, its clock the real one at the start of each
 * test). The tests date entries days back, so the schedules that look at dates
 * (BankReturnWindows, StatementCodeExpiry) run only when a test runs them. With what every
 * test of it does:
 * - `createdLongAgo`: an account whose prenotifications Increase made 10 days ago, so their
 *   return window has ended, not yet settled (the fake's clock is left then);
 * - `windowsEnded`: Increase submits what it still holds to send (it does within the day),
 *   then BankReturnWindows settles the checks whose window ended;
 * - `validAfterItsWindow`: both, so the account is valid; a control account's credit is
 *   sent then, dated `creditSentAt` (now by default);
 * - `delivered`: a signed notice as the webhook route takes it, each outcome the adapter
 *   reads applied, its metrics written as at the end of an invocation, the pipeline settled;
 * - `returnedNotice`: the notice of the account's first prenotification of `kind`, returned.
 */
export function useIncreaseRails() {
  const increase = {} as { fake: FakeIncrease };
  const logger = createLogger({ test: 'increase-rails' });
  beforeAll(async () => {
    increase.fake = await FakeIncrease.start();
  });
  afterAll(() => increase.fake?.stop());
  const rails = useRailsRuntime(
    () => {
      increase.fake.options.now = () => new Date();
      return new IncreaseBank({
        apiKey: increase.fake.options.apiKey,
        webhookSecret: increase.fake.options.webhookSecret,
        accountId: 'account_in71c4amph0vgo2qllky',
        baseURL: increase.fake.url,
      });
    },
    { consumers: schedulesRunByTheTest('BankReturnWindows', 'StatementCodeExpiry') },
  );

  async function delivered(notice: { body: string; headers: Record<string, string> }): Promise<void> {
    for (const outcome of (await bank().readNotice?.(notice.body, notice.headers)) ?? []) {
      await applyBankOutcome(outcome, logger);
    }
    flushMetrics();
    await rails.env.runtime.settle();
  }

  async function createdLongAgo(over: Record<string, unknown> = {}): Promise<string> {
    increase.fake.options.now = () => new Date(Date.now() - 10 * DAY_MS);
    return rails.created(over);
  }

  async function windowsEnded(): Promise<void> {
    increase.fake.submitPrenotifications();
    await rails.windowsEnded();
  }

  async function validAfterItsWindow(
    over: Record<string, unknown> = {},
    { creditSentAt = new Date() }: { creditSentAt?: Date } = {},
  ): Promise<string> {
    const id = await createdLongAgo(over);
    increase.fake.options.now = () => creditSentAt;
    await windowsEnded();
    increase.fake.options.now = () => new Date();
    return id;
  }

  function returnedNotice(
    id: string,
    kind: 'status' | 'debit',
    reason: Parameters<FakeIncrease['returnPrenotification']>[1],
  ): { body: string; headers: Record<string, string> } {
    const prenote = increase.fake.prenotificationByKey(`tenant-alice.${id}.${kind}.1`);
    if (!prenote) throw new Error(`no ${kind} prenotification for ${id}`);
    increase.fake.returnPrenotification(prenote.id, reason);
    return increase.fake.webhookFor(prenote.id);
  }

  return { ...rails, increase, createdLongAgo, windowsEnded, validAfterItsWindow, delivered, returnedNotice };
}
