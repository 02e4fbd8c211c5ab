import { verifyAccountResponse, verifyAccountsResponse } from '#functions/verify-accounts/openapi-responses';
import * as examples from '../examples/verify-accounts';
import { ARRAY, LIST } from './parameters';
import type { OperationSpec } from './types';

const accountId = {
  id: 'The verify account’s id. Malformed: `400 invalid_id`; unknown or another tenant’s: `404 unknown_id`.',
};

/** The OpenAPI words of lib/service/verify-accounts.ts's routes, by route id. */
export const VERIFY_ACCOUNT_OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  CreateVerifyAccount: {
    operationId: 'post-verify-accounts',
    summary: 'Start a verification',
    description:
      'Starts verifying a US bank account. Answers at once with every status of the type `pending` and an `estimated_verification_date`; the checks then run asynchronously, and each status change is a `verify_account_updated` event. Routing numbers must pass the ABA checksum. Ownership types need exactly one of `person` or `business`. A tenant may verify one bank account (routing and account number) at most 5 times in 24 hours, creations and debit re-checks together. Sandbox outcomes by account number and holder name: docs/sandbox.md.',
    tag: 'Verify accounts',
    requestBody: { name: 'VerifyAccountRequest', examples: examples.VERIFY_ACCOUNT_REQUESTS },
    success: {
      status: 200,
      description: 'The account, every status `pending`.',
      body: verifyAccountResponse,
      examples: { created: examples.VERIFY_ACCOUNT_RESPONSES.created },
    },
    errors: { 400: ['missing_ownership_details', 'invalid_ownership_details'], 429: ['too_many_verifications'] },
    errorExamples: { 400: { validation: examples.VALIDATION_ERROR } },
  },
  ListVerifyAccounts: {
    operationId: 'get-verify-accounts',
    summary: 'List verify accounts',
    description:
      'One page of the tenant’s verify accounts, newest first, filtered. With `id`, the page holds that account if it exists and matches the other filters (never 404). A status filter leaves out accounts without that status.',
    tag: 'Verify accounts',
    parameters: {
      ...LIST,
      id: 'One account id. Malformed, or given twice: `400 invalid_account_id` (Orum’s code).',
      account_number: 'Exact account number, compared by its digits (`0010-1044595` finds `00101044595`).',
      verification_status: ARRAY,
      ownership_status: ARRAY,
      control_status: ARRAY,
      debit_status: ARRAY,
    },
    success: {
      status: 200,
      description: 'One page.',
      body: verifyAccountsResponse,
      examples: { page: examples.VERIFY_ACCOUNT_RESPONSES.list },
    },
  },
  GetVerifyAccount: {
    operationId: 'get-verify-account',
    summary: 'Get a verify account',
    description: 'The account as it is now.',
    tag: 'Verify accounts',
    parameters: accountId,
    success: {
      status: 200,
      description: 'The account.',
      body: verifyAccountResponse,
      examples: { settled: examples.VERIFY_ACCOUNT_RESPONSES.settled },
    },
    errors: { 404: ['unknown_id'] },
  },
  VerifyAccountControl: {
    operationId: 'post-verify-account-control',
    summary: 'Submit the statement code',
    description:
      'Submits the 4-character code the account holder read on the statement (compared case-insensitively; the sandbox’s is `0000`). 3 attempts in all: a wrong code answers `400 incorrect_statement_code` with `attempts_remaining`; the third cancels control, and later submissions answer `429 too_many_attempts`. A code of another shape (`invalid_statement_code`) does not count as an attempt. Answers are decided in this order: `control_not_requested`, already `valid` (200, unchanged), `too_many_attempts`, `control_canceled`, `statement_code_not_sent`, expired (`control_canceled`), then the code itself.',
    tag: 'Verify accounts',
    parameters: accountId,
    requestBody: { name: 'VerifyAccountControlRequest', examples: examples.CONTROL_REQUESTS },
    success: {
      status: 200,
      description: 'The account; `control_status: valid` after the right code.',
      body: verifyAccountResponse,
      examples: { valid: examples.VERIFY_ACCOUNT_RESPONSES.controlValid },
    },
    errors: {
      400: ['control_not_requested', 'control_canceled', 'statement_code_not_sent', 'incorrect_statement_code'],
      404: ['unknown_id'],
      409: ['concurrent_update'],
      429: ['too_many_attempts'],
    },
    errorExamples: { 400: { incorrect: examples.INCORRECT_STATEMENT_CODE } },
  },
  VerifyAccountDebits: {
    operationId: 'post-verify-account-debit',
    summary: 'Re-check debits',
    description:
      'Asks the bank again whether the account takes debits: `debit_status` goes back to `pending` at once and settles again asynchronously (an event on each change). No body (`{}` or empty). While `debit_status` is already `pending` the account is answered unchanged. Counts as one of the bank account’s 5 verifications in 24 hours.',
    tag: 'Verify accounts',
    parameters: accountId,
    requestBody: { name: 'EmptyRequest', description: 'No fields: an empty body or `{}`.' },
    success: { status: 200, description: 'The account, `debit_status: pending`.', body: verifyAccountResponse },
    errors: { 404: ['unknown_id'], 409: ['concurrent_update'], 429: ['too_many_verifications'] },
  },
};
