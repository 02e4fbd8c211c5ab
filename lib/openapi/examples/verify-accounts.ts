import { AT, type Example, LATER } from './example';

// Examples of the verify-accounts routes (./example.ts says what examples are held to).

/** The account of every verify-accounts example. */
export const ACCOUNT_ID = '3b9f6a2e-8c41-4d7a-9e52-0f1c2d3e4a5b';

const routing = { routing_number: '021000021' };

export const VERIFY_ACCOUNT_REQUESTS: Record<string, Example> = {
  valid: {
    summary: 'A valid account',
    description: 'Any account number not ending in a sandbox suffix settles `valid`, debits `valid`.',
    value: { account_number: '1234567890', ...routing, account_holder_name: 'Jane Doe' },
  },
  debitBlocked: {
    summary: 'Valid, debits blocked (…4444)',
    value: { account_number: '1234564444', ...routing, account_holder_name: 'Jane Doe' },
  },
  closed: {
    summary: 'Closed account with a full ownership match (…2222)',
    description: 'Ownership is checked whatever the verification status.',
    value: {
      type: 'status_ownership',
      account_number: '1234562222',
      ...routing,
      account_holder_name: 'Jane Doe',
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '123456789' },
    },
  },
  partialOwnership: {
    summary: 'Partial ownership',
    description: '`first_name` matches the holder name’s first word, `last_name` does not.',
    value: {
      type: 'status_ownership',
      account_number: '1234567890',
      ...routing,
      account_holder_name: 'Jane Doe',
      person: { first_name: 'Jane', last_name: 'Smith' },
    },
  },
  noBankRecord: {
    summary: 'No bank record (…9999): ownership `not_found`',
    value: {
      type: 'status_ownership',
      account_number: '1234569999',
      ...routing,
      account_holder_name: 'Jane Doe',
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '000000000', phone_number: '+14155550000' },
    },
  },
  control: {
    summary: 'Control: a statement-code credit, then `POST …/control` with `0000`',
    value: {
      type: 'control',
      account_number: '1234567890',
      ...routing,
      account_holder_name: 'Jane Doe',
      email: 'jane.doe@example.com',
      sender_name: 'Acme Payroll',
    },
  },
  invalidByName: {
    summary: 'Holder name `Invalid`: `invalid` whatever the number',
    value: { account_number: '1234566789', ...routing, account_holder_name: 'Invalid' },
  },
};

const account = {
  id: ACCOUNT_ID,
  created_at: AT,
  updated_at: AT,
  type: 'control',
  account_number: '1234567890',
  routing_number: '021000021',
  account_holder_name: 'Jane Doe',
  email: 'jane.doe@example.com',
  sender_name: 'Acme Payroll',
  verification_status: 'pending',
  control_status: 'pending',
  debit_status: 'pending',
  estimated_verification_date: '2026-02-02T00:00:00.000Z',
};

const settledAccount = {
  id: ACCOUNT_ID,
  created_at: AT,
  updated_at: LATER,
  type: 'status_ownership',
  account_number: '1234562222',
  routing_number: '021000021',
  account_holder_name: 'Jane Doe',
  verification_status: 'closed',
  status_reason: 'closed_account',
  ownership_status: 'full',
  person: {
    first_name: 'Jane',
    last_name: 'Doe',
    first_name_match: 'match',
    last_name_match: 'match',
    ssn_match: 'match',
  },
  debit_status: 'failed',
  debit_status_reason: 'closed_account',
  estimated_verification_date: '2026-01-31T00:00:00.000Z',
};

export const VERIFY_ACCOUNT_RESPONSES = {
  created: { summary: 'Answered at once: every status `pending`', value: { account } },
  settled: { summary: 'Settled: closed account (…2222), full ownership', value: { account: settledAccount } },
  list: { summary: 'One page', value: { accounts: [settledAccount] } },
  controlValid: {
    summary: 'The right code: control `valid`',
    value: {
      account: {
        ...account,
        updated_at: LATER,
        verification_status: 'valid',
        control_status: 'valid',
        debit_status: 'valid',
      },
    },
  },
} satisfies Record<string, Example>;

export const CONTROL_REQUESTS: Record<string, Example> = {
  right: { summary: 'The sandbox’s code', value: { statement_code: '0000' } },
  wrong: { summary: 'A wrong code: `400 incorrect_statement_code`', value: { statement_code: '1234' } },
};

export const INCORRECT_STATEMENT_CODE: Example = {
  summary: 'A wrong statement code',
  value: {
    error_code: 'incorrect_statement_code',
    message: 'the statement code is not correct',
    attempts_remaining: 2,
    details: { attempts_remaining: 2 },
    request_id: 'Q3kR1gxyIAMEbzA=',
  },
};

export const VALIDATION_ERROR: Example = {
  summary: 'A validation error',
  value: {
    error_code: 'invalid_routing_number',
    message: 'routing_number must be a 9-digit ABA routing number with a valid checksum',
    details: {
      issues: [
        {
          field: 'routing_number',
          problem: 'invalid',
          message: 'must be a 9-digit ABA routing number with a valid checksum',
        },
      ],
    },
    request_id: 'Q3kR1gxyIAMEbzA=',
  },
};
