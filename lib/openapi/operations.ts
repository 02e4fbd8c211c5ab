import type * as z from 'zod/mini';
import { MAX_PAGE_OFFSET } from '#domain/pagination';
import { eventResponse, eventsResponse } from '../../functions/events/responses';
import { personResponse, personsResponse } from '../../functions/persons/responses';
import { completePersonLists } from '../../functions/persons/schemas';
import { sanctionsEntryResponse } from '../../functions/screening/responses';
import { verifyAccountResponse, verifyAccountsResponse } from '../../functions/verify-accounts/responses';
import {
  configurationResponse,
  configurationsResponse,
  webhookSecretResponse,
} from '../../functions/webhooks/responses';
import type { ErrorCode } from './error-codes';
import type { Example } from './examples';
import * as examples from './examples';

/**
 * What the OpenAPI document says about each route beyond what the route table and the
 * handler's own schemas already say: words, the success answer's schema, examples and the
 * error codes the route's own code raises. One entry per route id of lib/service (a unit
 * test holds them equal). Everything else (parameters, request bodies, validation codes,
 * the answers every route shares) is derived in document.ts / contract.ts.
 */

export type Tag = 'Verify accounts' | 'Persons' | 'Events' | 'Webhooks' | 'Local sandbox';

export interface SuccessSpec {
  readonly status: 200 | 201 | 202 | 204;
  readonly description: string;
  /** The body's schema (functions/<area>/responses.ts); none: no body. */
  readonly body?: z.core.$ZodType;
  readonly examples?: Readonly<Record<string, Example>>;
  /** The answer carries `Cache-Control: no-store` (it holds a secret). */
  readonly noStore?: true;
}

export interface OperationSpec {
  /** Orum's operationId where Orum has the operation, so generated clients name it alike. */
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: Tag;
  /** Descriptions of the path and query parameters, by name. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** The component name of the request body (Orum's where it has one); its schema is the handler's. */
  readonly requestBody?: {
    readonly name: string;
    readonly description?: string;
    readonly examples?: Readonly<Record<string, Example>>;
  };
  readonly success: SuccessSpec;
  /**
   * The schema the route's use case completes a partial body to from the stored record
   * (PATCH's partial address and contacts): the codes it answers are the route's too.
   */
  readonly bodyCompletion?: z.core.$ZodType;
  /**
   * Codes the route's own code raises, by status, beyond the middleware stack's and its
   * schemas' (contract.ts derives those), e.g. a `superRefine`'s or a use case's.
   */
  readonly errors?: Partial<Readonly<Record<400 | 403 | 404 | 409 | 429, readonly ErrorCode[]>>>;
  /** Examples of error answers, by status. */
  readonly errorExamples?: Partial<Readonly<Record<400, Readonly<Record<string, Example>>>>>;
}

const LIST = {
  index: `Zero-based page number (docs/api.md#lists). A page may start at most ${MAX_PAGE_OFFSET.toLocaleString('en-US')} entries into the list: \`index × size\` above that answers \`400 invalid_index\`; narrow the list with \`start_time\`/\`end_time\` or a filter instead.`,
  size: 'Page length; `0` answers an empty page.',
  start_time: 'Created at or after this time (any offset; compared in UTC).',
  end_time: 'Created before this time; must be after `start_time`.',
};
const ARRAY = 'Repeat the parameter or separate values with commas; values are ORed.';

const accountId = {
  id: 'The verify account’s id. Malformed: `400 invalid_id`; unknown or another tenant’s: `404 unknown_id`.',
};
const personId = { id: 'The person’s id. Unknown, another tenant’s or malformed: `404 unknown_id_person` (as Orum).' };
const eventId = {
  id: 'The event’s id. Malformed: `400 invalid_id`; unknown, another tenant’s or expired: `404 unknown_id_event`.',
};
const configurationId = {
  id: 'The configuration’s id. Unknown, another tenant’s or malformed: `404 unknown_id_webhook_configuration`.',
};

const personChangeConflicts: readonly ErrorCode[] = [
  'person_closed',
  'person_restricted',
  'duplicate_customer_reference_id',
  'concurrent_update',
];

export const OPERATIONS: Readonly<Record<string, OperationSpec>> = {
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
  CreatePerson: {
    operationId: 'post-person',
    summary: 'Create a person',
    description:
      'A new person, `status: created`. Identification (and screening) starts asynchronously when the person carries an SSN, a date of birth or an address; names alone stay `created`. Sandbox outcomes: docs/sandbox.md#persons.',
    tag: 'Persons',
    requestBody: { name: 'PersonRequest', examples: examples.PERSON_REQUESTS },
    success: {
      status: 200,
      description: 'The person.',
      body: personResponse,
      examples: { created: examples.PERSON_RESPONSES.created },
    },
    errors: { 409: ['duplicate_customer_reference_id'] },
  },
  ListPersons: {
    operationId: 'get-persons',
    summary: 'List persons',
    description:
      'One page of the tenant’s persons, newest first, filtered. Name filters match case-insensitively and exactly.',
    tag: 'Persons',
    parameters: {
      ...LIST,
      id: 'One person id. Malformed, or given twice: `400 invalid_orum_id` (Orum’s code).',
      account_number:
        'Orum’s filter, taken with Orum’s pattern (4 to 17 digits, single hyphens between them; else `400 invalid_account_number`). A person here carries no bank account, so it matches no one: the page is empty.',
      customer_reference_id: 'Exact customer reference id.',
      status: `${ARRAY} A bad value: \`400 invalid_person_status\` (Orum’s code).`,
      first_name: 'First name, case-insensitive.',
      last_name: 'Last name, case-insensitive.',
    },
    success: {
      status: 200,
      description: 'One page.',
      body: personsResponse,
      examples: { page: examples.PERSON_RESPONSES.list },
    },
  },
  GetPerson: {
    operationId: 'get-person',
    summary: 'Get a person',
    description: 'The person as it is now.',
    tag: 'Persons',
    parameters: personId,
    success: {
      status: 200,
      description: 'The person.',
      body: personResponse,
      examples: { rejected: examples.PERSON_RESPONSES.rejected },
    },
    errors: { 404: ['unknown_id_person'] },
  },
  UpdatePerson: {
    operationId: 'patch-person',
    summary: 'Update a person',
    description:
      'Changes the fields sent; a field left out is unchanged; `null` removes an optional field (and is refused for a required one). As in Orum, an address needs only `type`: the fields sent are merged into the stored address (without one, they must make a whole address: `400 missing_address1`, …), and a contact without `value` keeps the stored contact of its type (without one: `400 missing_contacts_value`); the `contacts` list and `metadata` sent replace the current ones whole. `customer_reference_id`, which Orum’s PATCH lacks, is taken. A change of identity data (names, date of birth, SSN, address) identifies the person again; a restricted person’s identity data cannot change, a closed person nothing.',
    tag: 'Persons',
    parameters: personId,
    requestBody: { name: 'PatchPersonRequest', examples: examples.PERSON_PATCHES },
    success: { status: 200, description: 'The person.', body: personResponse },
    bodyCompletion: completePersonLists,
    errors: { 404: ['unknown_id_person'], 409: personChangeConflicts },
  },
  ReplacePerson: {
    operationId: 'put-person',
    summary: 'Replace a person',
    description:
      'The person becomes exactly the body: what it leaves out is removed, the SSN included. Identity changes identify the person again.',
    tag: 'Persons',
    parameters: personId,
    requestBody: { name: 'PersonRequest' },
    success: { status: 200, description: 'The person.', body: personResponse },
    errors: { 404: ['unknown_id_person'], 409: personChangeConflicts },
  },
  UpsertPerson: {
    operationId: 'put-person-using-reference-id',
    summary: 'Create or replace a person by customer reference id',
    description:
      'Creates the person of the body’s `customer_reference_id`, or replaces it as `PUT /persons/{id}` does.',
    tag: 'Persons',
    requestBody: { name: 'PersonRequest' },
    success: { status: 200, description: 'The person.', body: personResponse },
    errors: { 409: personChangeConflicts },
  },
  ClosePerson: {
    operationId: 'delete-person',
    summary: 'Close a person',
    description: 'Closes the person for good (`person_closed` event). Closing a closed person answers it unchanged.',
    tag: 'Persons',
    parameters: personId,
    success: {
      status: 200,
      description: 'The person, `status: closed`.',
      body: personResponse,
      examples: { closed: examples.PERSON_RESPONSES.closed },
    },
    errors: { 404: ['unknown_id_person'], 409: ['concurrent_update'] },
  },
  AddSanctionsEntry: {
    operationId: 'post-local-sanctions-entry',
    summary: 'Add a sanctions-list entry (local runtime only)',
    description:
      'Served by `npm start` only, never deployed. Adds an entry (`First Last` or `LAST, First`) to the sanctions list and re-screens at once: a verified person of that name (and date of birth, when both have one) is `restricted` when this answers.',
    tag: 'Local sandbox',
    requestBody: { name: 'SanctionsEntryRequest', examples: { entry: examples.SANCTIONS_ENTRY } },
    success: {
      status: 201,
      description: 'The entry, and how many persons it restricts now.',
      body: sanctionsEntryResponse,
      examples: { entry: examples.SANCTIONS_ENTRY_RESPONSE },
    },
  },
  ListEvents: {
    operationId: 'get-events',
    summary: 'List events',
    description:
      'One page of the tenant’s events of the last 30 days, newest first, of the kinds the token reads: `read:persons` reads `person_*` events, `read:verify-accounts` `verify_account_updated`, `invoke:webhook` the test events of kinds only a test event has (`business_*`, `external_account_*`, `transfer_updated`, `subledger_created`, `book_transfer_updated`); any of these scopes admits the route. An `event_type` filter naming a kind the token does not read answers `403 insufficient_scope`.',
    tag: 'Events',
    parameters: { ...LIST, event_type: ARRAY },
    success: {
      status: 200,
      description: 'One page.',
      body: eventsResponse,
      examples: { page: examples.EVENT_RESPONSES.list },
    },
    errors: { 403: ['insufficient_scope'] },
  },
  GetEvent: {
    operationId: 'get-event',
    summary: 'Get an event and its delivery attempts',
    description:
      'The event, and its newest 100 attempts to deliver it to each configuration (an event keeps no more, so this is not paged). Read with its kind’s scope (`read:persons` for `person_*`, `read:verify-accounts` for `verify_account_updated`, `invoke:webhook` for the kinds only a test event has): another kind answers `403 insufficient_scope`.',
    tag: 'Events',
    parameters: eventId,
    success: {
      status: 200,
      description: 'The event.',
      body: eventResponse,
      examples: { attempts: examples.EVENT_RESPONSES.withAttempts },
    },
    errors: { 403: ['insufficient_scope'], 404: ['unknown_id_event'] },
  },
  RedeliverEvent: {
    operationId: 'post-event-redeliver',
    summary: 'Deliver an event again',
    description:
      'Sends the event again, with the same `webhook-id`, to every configuration subscribed to it now. No body (`{}` or empty). Paced: one event 5 times at once, then once every 4.8 hours (`429 too_many_redeliveries`); one tenant 10 events at once, then one a second (`429 redelivery_rate_exceeded`); each with `Retry-After`. An unknown event uses no budget.',
    tag: 'Events',
    parameters: eventId,
    requestBody: { name: 'EmptyRequest', description: 'No fields: an empty body or `{}`.' },
    success: { status: 202, description: 'Accepted: the event goes out again.' },
    errors: { 404: ['unknown_id_event'], 429: ['too_many_redeliveries', 'redelivery_rate_exceeded'] },
  },
  InvokeWebhook: {
    operationId: 'post-invoke',
    summary: 'Send a test event',
    description:
      'Sends a test event of `event_type`, any kind of Orum’s trigger schema (also those the service never emits: `person_unverified`, `business_*`, `external_account_*`, `transfer_updated`, `subledger_created`, `book_transfer_updated`), to the tenant’s configurations through the real delivery path (it shows in the event log). `data` is the record to carry, under the name its kind gives (`event_data.person`, `.account`, `.business`, `.external_account`, `.transfer`, `.subledger`, `.book_transfer`); without it, a generated sample of that record. `data` may not hold a key named `ssn`, `social_security_number`, `tax_id` or `statement_code` (case, `_` and `-` aside; `ssn_match`, `tax_id_match` pass), nor nest more than 16 levels (`400 invalid_data`).',
    tag: 'Webhooks',
    requestBody: { name: 'TestEventRequest', examples: examples.INVOKE_REQUESTS },
    success: { status: 201, description: 'The test event was stored and goes out.' },
  },
  CreateWebhookConfiguration: {
    operationId: 'post-webhook-configuration',
    summary: 'Create a webhook configuration',
    description:
      'At most 10 per tenant. `url` must be `https://` on port 443 to a host whose every address is public (the local runtime also accepts `http://` and any port on loopback); else `400 invalid_url`.',
    tag: 'Webhooks',
    requestBody: { name: 'ConfigurationRequest', examples: { configuration: examples.CONFIGURATION_REQUEST } },
    success: {
      status: 200,
      description: 'The configuration.',
      body: configurationResponse,
      examples: { one: examples.CONFIGURATION_RESPONSES.one },
    },
    errors: { 409: ['too_many_webhook_configurations'] },
  },
  ListWebhookConfigurations: {
    operationId: 'get-webhook-configurations',
    summary: 'List webhook configurations',
    description: 'All of the tenant’s configurations, newest first (no paging).',
    tag: 'Webhooks',
    success: {
      status: 200,
      description: 'Every configuration.',
      body: configurationsResponse,
      examples: { all: examples.CONFIGURATION_RESPONSES.all },
    },
  },
  ReplaceWebhookConfiguration: {
    operationId: 'put-webhook-configurations',
    summary: 'Replace a webhook configuration',
    description: 'The configuration becomes exactly the body (all three fields); `url` follows the rules of create.',
    tag: 'Webhooks',
    parameters: configurationId,
    requestBody: { name: 'ConfigurationRequest' },
    success: { status: 200, description: 'The configuration.', body: configurationResponse },
    errors: { 404: ['unknown_id_webhook_configuration'] },
  },
  DeleteWebhookConfiguration: {
    operationId: 'delete-webhook-configurations',
    summary: 'Delete a webhook configuration',
    description: 'Nothing more is delivered to it.',
    tag: 'Webhooks',
    parameters: configurationId,
    success: { status: 204, description: 'Deleted.' },
    errors: { 404: ['unknown_id_webhook_configuration'] },
  },
  CreateWebhookSecret: {
    operationId: 'post-webhook-secret',
    summary: 'Create or rotate the signing secret',
    description:
      'A new Standard Webhooks signing secret. The previous one keeps signing beside it for 24 hours (two signatures per delivery). The answer is never stored, so an `Idempotency-Key` is not replayed: read the current secret with `GET /webhooks/secret` rather than retrying.',
    tag: 'Webhooks',
    requestBody: { name: 'EmptyRequest', description: 'No fields: an empty body or `{}`.' },
    success: {
      status: 200,
      description: 'The new secret.',
      body: webhookSecretResponse,
      examples: { secret: examples.SECRET_RESPONSE },
      noStore: true,
    },
    errors: { 409: ['concurrent_update'] },
  },
  GetWebhookSecret: {
    operationId: 'get-webhook-secret',
    summary: 'Get the signing secret',
    description: 'The current signing secret.',
    tag: 'Webhooks',
    success: {
      status: 200,
      description: 'The current secret.',
      body: webhookSecretResponse,
      examples: { secret: examples.SECRET_RESPONSE },
      noStore: true,
    },
    errors: { 404: ['unknown_webhook_secret'] },
  },
};
