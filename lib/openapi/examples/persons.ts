import { AT, type Example, LATER } from './example';

// Examples of the persons routes (./example.ts says what examples are held to).

/** The person of every persons example. */
export const PERSON_ID = '6f1e2d3c-4b5a-4987-8a6b-5c4d3e2f1a0b';

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

/** A person rejected by screening, as the event log shows it too. */
export const REJECTED_PERSON = {
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
  rejected: { summary: 'Rejected by screening', value: { person: REJECTED_PERSON } },
  closed: {
    summary: 'Closed',
    value: { person: { ...person, status: 'closed', updated_at: LATER, closed_at: LATER } },
  },
  list: { summary: 'One page', value: { persons: [REJECTED_PERSON, person] } },
} satisfies Record<string, Example>;
