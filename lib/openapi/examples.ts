// Examples of the OpenAPI document, with the sandbox's values (docs/sandbox.md), so that
// sending one provokes the outcome it names. Every example is parsed by the schema it
// illustrates (the handler's request schema, or the response schema) in the unit tests,
// so an example cannot drift from the contract either. Fictional values only.

export interface Example {
  readonly summary: string;
  readonly description?: string;
  readonly value: unknown;
}

const AT = '2026-01-31T12:00:00.000Z';
const LATER = '2026-01-31T12:00:01.250Z';
const ACCOUNT_ID = '3b9f6a2e-8c41-4d7a-9e52-0f1c2d3e4a5b';
const PERSON_ID = '6f1e2d3c-4b5a-4987-8a6b-5c4d3e2f1a0b';

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

const address = { type: 'home', address1: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', zip5: '62701' };

export const PERSON_REQUESTS: Record<string, Example> = {
  verified: {
    summary: 'Identified and verified',
    description: 'Identity data starts identification; these pass every check.',
    value: {
      customer_reference_id: 'cust-1001',
      first_name: 'Jane',
      last_name: 'Doe',
      date_of_birth: '1990-04-12',
      social_security_number: '123-45-6789',
      addresses: [address],
      contacts: [{ type: 'email', value: 'jane.doe@example.com' }],
      metadata: { segment: 'gold', referrals: 2, flags: { vip: true } },
    },
  },
  namesOnly: {
    summary: 'Names only: stays `created`',
    value: { customer_reference_id: 'cust-1002', first_name: 'John', last_name: 'Roe' },
  },
  sanctioned: {
    summary: 'On the sandbox sanctions list: `rejected` (`matched_watchlist`)',
    value: {
      customer_reference_id: 'cust-1003',
      first_name: 'Sandy',
      last_name: 'Sanctioned',
      date_of_birth: '1980-01-01',
    },
  },
  alertList: {
    summary: 'On the sandbox alert list: `rejected` (`matched_alertlist`)',
    value: {
      customer_reference_id: 'cust-1004',
      first_name: 'Alex',
      last_name: 'Alertlist',
      date_of_birth: '1980-01-01',
    },
  },
  deceased: {
    summary: 'SSN ending 0001: `rejected` (`deceased_person`, Service-KYC)',
    value: {
      customer_reference_id: 'cust-1005',
      first_name: 'Jane',
      last_name: 'Doe',
      date_of_birth: '1990-04-12',
      social_security_number: '123-45-0001',
    },
  },
};

// Each works on a person made by any create example above, with or without an address or
// a contact (test/integration/openapi/examples.test.ts sends them so); the shorter forms
// that need a stored address or contact are in their descriptions.
export const PERSON_PATCHES: Record<string, Example> = {
  contacts: {
    summary: 'Replace the contacts: an email and a phone',
    description:
      'The list sent replaces the stored one whole. A contact sent without `value` keeps the stored contact of its type (`{ "type": "email" }`); without one it answers `400 missing_contacts_value`.',
    value: {
      contacts: [
        { type: 'email', value: 'jane.doe@example.com' },
        { type: 'phone', value: '2125551212' },
      ],
    },
  },
  address: {
    summary: 'Move to a new address',
    description:
      'A whole address works on any person. On a person with a stored address only the fields that change are needed: `[{ "type": "home", "zip5": "62704" }]` is merged into it (without one it answers `400 missing_address1`, …).',
    value: { addresses: [{ ...address, address1: '2 Elm St', zip5: '62704' }] },
  },
  remove: { summary: '`null` removes an optional field', value: { middle_name: null, metadata: null } },
};

const person = {
  id: PERSON_ID,
  customer_reference_id: 'cust-1001',
  first_name: 'Jane',
  last_name: 'Doe',
  date_of_birth: '1990-04-12',
  status: 'created',
  addresses: [{ id: 'a1b2c3d4-e5f6-4789-8abc-def012345678', ...address, created_at: AT, updated_at: AT }],
  contacts: [
    {
      id: 'b2c3d4e5-f6a7-4890-9bcd-ef0123456789',
      type: 'email',
      value: 'jane.doe@example.com',
      created_at: AT,
      updated_at: AT,
    },
  ],
  metadata: { segment: 'gold' },
  created_at: AT,
  updated_at: AT,
};

const rejected = {
  id: PERSON_ID,
  customer_reference_id: 'cust-1003',
  first_name: 'Sandy',
  last_name: 'Sanctioned',
  date_of_birth: '1980-01-01',
  status: 'rejected',
  status_reasons: [
    { reason_code: 'matched_watchlist', reason_code_message: 'The person matched one or more sanctions lists.' },
  ],
  created_at: AT,
  updated_at: LATER,
};

export const PERSON_RESPONSES = {
  created: { summary: 'Created: identification starts on its own', value: { person } },
  rejected: { summary: 'Rejected by screening', value: { person: rejected } },
  closed: {
    summary: 'Closed',
    value: { person: { ...person, status: 'closed', updated_at: LATER, closed_at: LATER } },
  },
  list: { summary: 'One page', value: { persons: [rejected, person] } },
} satisfies Record<string, Example>;

export const SANCTIONS_ENTRY: Example = {
  summary: 'Sanction a verified person’s name',
  description: 'A verified person of that name (and date of birth, when both have one) becomes `restricted`.',
  value: { name: 'Jane Doe', date_of_birth: '1990-04-12' },
};

export const SANCTIONS_ENTRY_RESPONSE: Example = {
  summary: 'One person restricted',
  value: {
    entry: { id: 'local-5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f', name: 'Jane Doe', date_of_birth: '1990-04-12' },
    restricted: 1,
  },
};

const openHit = {
  id: 'WyJhY21lIiwiNmYxZTJkM2MtNGI1YS00OTg3LThhNmItNWM0ZDNlMmYxYTBiIiwic2FuY3Rpb25zIiwiU0ROLTkwMDAxIl0',
  status: 'open',
  tenant: 'acme',
  person_id: PERSON_ID,
  screened: { first_name: 'Sandy', last_name: 'Sanctioned', date_of_birth: '1990-04-12' },
  list: 'sanctions',
  source: 'SDN',
  entry_id: 'SDN-90001',
  listed_name: 'SANCTIONED, Sandy',
  matched_name: 'SANCTIONED, Sandy',
  matched_kind: 'primary',
  score: 100,
  date_of_birth_agreement: 'unknown',
  lists_version: 3,
  found_at: AT,
  screened_at: AT,
};

export const SCREENING_HIT_RESPONSES = {
  list: { summary: 'The open hits', value: { screening_hits: [openHit] } },
  cleared: {
    summary: 'Cleared as a false positive',
    value: {
      screening_hit: {
        ...openHit,
        status: 'cleared',
        decision: {
          decision: 'false_positive',
          decided_by: 'compliance-client',
          decided_at: LATER,
          note: 'Different person: the listed Sandy Sanctioned is a fictional entry.',
        },
      },
    },
  },
} satisfies Record<string, Example>;

const event = {
  event_id: '0b5c9a4e-3f1d-5c2a-9e7b-1a2b3c4d5e6f',
  event_type: 'person_rejected',
  created_at: LATER,
  event_data: { person: rejected },
};

export const EVENT_RESPONSES = {
  list: { summary: 'One page', value: { events: [event] } },
  withAttempts: {
    summary: 'An event and its delivery attempts',
    value: {
      event: {
        ...event,
        attempts: [
          { at: LATER, url: 'https://hooks.acme.example/orum', status_code: 503, latency_ms: 87 },
          { at: '2026-01-31T12:00:06.400Z', url: 'https://hooks.acme.example/orum', status_code: 200, latency_ms: 64 },
        ],
      },
    },
  },
} satisfies Record<string, Example>;

export const INVOKE_REQUESTS: Record<string, Example> = {
  sample: { summary: 'A generated sample person', value: { event_type: 'person_verified' } },
  data: {
    summary: 'Your own data, sent as `event_data.account`',
    value: {
      event_type: 'verify_account_updated',
      data: { id: ACCOUNT_ID, account_holder_name: 'Jane Doe', verification_status: 'valid' },
    },
  },
};

export const CONFIGURATION_REQUEST: Example = {
  summary: 'Persons and accounts',
  value: {
    url: 'https://hooks.acme.example/orum',
    event_types: ['person_all', 'verify_account_updated'],
    enabled: true,
  },
};

const configuration = {
  id: '7d3e2b8a-4c1f-4e6a-9b0d-2f5a8c1e3d47',
  enterprise_name: 'acme',
  data_version: 'v2022-09-21',
  event_types: ['person_all', 'verify_account_updated'],
  enabled: true,
  url: 'https://hooks.acme.example/orum',
  created_at: AT,
  created_by: '0oa1acme',
  updated_at: AT,
  updated_by: '0oa1acme',
};

export const CONFIGURATION_RESPONSES = {
  one: { summary: 'A configuration', value: { webhook_configuration: configuration } },
  all: { summary: 'All of them', value: { webhook_configurations: [configuration] } },
} satisfies Record<string, Example>;

export const SECRET_RESPONSE: Example = {
  summary: 'The signing secret',
  value: { webhook_secret: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', created_at: AT } },
};
