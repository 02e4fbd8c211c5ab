import { accountListQuery } from '#shared/db/verify-accounts/list';
import { cycle, httpEvent, scheduledEvent, sqsEvent } from './lambda-events';
import { ACCOUNTS_TENANT, byTenant, route, type Step, times, type World } from './workload';

/**
 * The Verify API's functions. Accounts vary as partners send them (docs/sandbox.md): the
 * four verification types, ownership details with an SSN or a tax id (encrypted), a debit
 * block now and then; every account number is new, so none meets the 5-per-24-h limit.
 */
const ROUTING_NUMBER = '021000021';
const TYPES = ['status', 'control', 'status_ownership', 'control_ownership'] as const;

/** Unique per i; one in twenty ends 4444 (valid, debits blocked), the rest in no sandbox row. */
const accountNumber = (i: number) =>
  i % 20 === 0 ? `8${String(i).padStart(4, '0')}4444` : `77${String(i).padStart(6, '0')}`;

function createBody(i: number) {
  const type = TYPES[i % TYPES.length] as (typeof TYPES)[number];
  return {
    type,
    account_number: accountNumber(i),
    routing_number: ROUTING_NUMBER,
    account_holder_name: i % 3 === 0 ? 'Northwind Traders LLC' : 'Jane Q. Doe',
    ...(type === 'status_ownership' && {
      person: {
        first_name: 'Jane',
        last_name: 'Doe',
        ssn: `12345${String(i).padStart(4, '0')}`,
        phone_number: '+14155550123',
      },
    }),
    ...(type === 'control_ownership' && {
      business: { business_name: 'Northwind Traders LLC', tax_id: `98765${String(i).padStart(4, '0')}` },
    }),
    ...(type.startsWith('control') && { email: `holder${i}@example.com`, sender_name: 'Acme Payroll' }),
  };
}

/** The tenant's accounts (id and the statuses the list index projects), oldest first. */
const accounts = (world: World) => byTenant(world, accountListQuery(ACCOUNTS_TENANT, {}).partitions);

/**
 * List calls as a dashboard makes them: first pages, mostly, of a few sizes, with and
 * without a filter most accounts pass (a rare status would walk the whole index: the
 * lists part of the bench measures that).
 */
const LIST_QUERIES = [
  'size=10',
  'size=20',
  'index=1&size=10',
  'verification_status=valid&size=10',
  `account_number=${accountNumber(40)}`,
  'start_time=2020-01-01T00:00:00Z&size=10',
];

export const ACCOUNT_STEPS: readonly Step[] = [
  {
    name: 'CreateVerifyAccount',
    after: [],
    expect: ['200'],
    events: async (world) =>
      times(world.invocations, (i) =>
        httpEvent(route('CreateVerifyAccount'), {
          tenant: ACCOUNTS_TENANT,
          body: createBody(i),
          // One request in four carries one (docs/api.md#idempotency), as some partners send it and others do not.
          ...(i % 4 === 0 && { idempotencyKey: `create-${i}` }),
        }),
      ),
  },
  {
    name: 'GetVerifyAccount',
    after: ['CreateVerifyAccount'],
    expect: ['200'],
    events: async (world) =>
      cycle(await accounts(world), world.invocations).map((account) =>
        httpEvent(route('GetVerifyAccount'), { tenant: ACCOUNTS_TENANT, pathParameters: { id: String(account.id) } }),
      ),
  },
  {
    name: 'ListVerifyAccounts',
    after: ['CreateVerifyAccount'],
    expect: ['200'],
    events: async (world) =>
      cycle(LIST_QUERIES, world.invocations).map((query) =>
        httpEvent(route('ListVerifyAccounts'), { tenant: ACCOUNTS_TENANT, query }),
      ),
  },
  {
    name: 'VerificationWorker',
    after: ['StreamRouter'],
    expect: ['ok'],
    // One message per invocation: at a partner's pace the queue seldom holds more.
    events: async (world) =>
      cycle(world.queues.bodies('verification'), world.invocations).map((body) => sqsEvent('verification', [body])),
  },
  {
    name: 'StatementCodeEmailWorker',
    after: ['VerificationWorker'],
    expect: ['ok'],
    // What the stream router queues once the worker sent a code (its records come after the
    // router's step here): every account whose code awaits an answer, one message an invocation.
    events: async (world) => {
      const sent = (await accounts(world)).filter((account) => account.control_status === 'pending');
      return cycle(sent, world.invocations).map((account) =>
        sqsEvent('statementCodeEmails', [JSON.stringify({ tenant: ACCOUNTS_TENANT, id: String(account.id) })]),
      );
    },
  },
  {
    name: 'StatementCodeExpiry',
    after: ['VerificationWorker'],
    expect: ['ok'],
    events: async (world) => times(world.invocations, () => scheduledEvent('StatementCodeExpiry')),
  },
  {
    name: 'BankReturnWindows',
    after: ['VerificationWorker'],
    expect: ['ok'],
    // Hourly. The bench's stack has the sandbox bank, which answers at once: no check waits
    // for its return window, so each run queries the ended windows (byDueTime) and finds none,
    // as it does deployed with the sandbox bank.
    events: async (world) => times(world.invocations, () => scheduledEvent('BankReturnWindows')),
  },
  {
    name: 'VerifyAccountControl',
    after: ['VerificationWorker', 'GetVerifyAccount', 'ListVerifyAccounts'],
    // A wrong code answers 400 with the attempts left (docs/sandbox.md#control).
    expect: ['200', '400'],
    // Every account whose statement code was sent: a mistyped code first, then the sandbox's 0000.
    events: async (world) => {
      const sent = (await accounts(world)).filter((account) => account.control_status === 'pending');
      if (sent.length < Math.floor(world.invocations / 2))
        throw new Error(`only ${sent.length} accounts await a statement code`);
      return cycle(
        sent.flatMap((account) => ['12AB', '0000'].map((code) => ({ id: String(account.id), code }))),
        world.invocations,
      ).map(({ id, code }, i) =>
        httpEvent(route('VerifyAccountControl'), {
          tenant: ACCOUNTS_TENANT,
          pathParameters: { id },
          body: { statement_code: code },
          ...(i % 4 === 0 && { idempotencyKey: `control-${i}` }),
        }),
      );
    },
  },
  {
    name: 'VerifyAccountDebits',
    after: ['VerifyAccountControl', 'StatementCodeExpiry'],
    expect: ['200'],
    events: async (world) =>
      cycle(await accounts(world), world.invocations).map((account, i) =>
        httpEvent(route('VerifyAccountDebits'), {
          tenant: ACCOUNTS_TENANT,
          pathParameters: { id: String(account.id) },
          ...(i % 4 === 0 && { idempotencyKey: `debits-${i}` }),
        }),
      ),
  },
];
