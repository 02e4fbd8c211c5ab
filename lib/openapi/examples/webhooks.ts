import { AT, type Example } from './example';
import { ACCOUNT_ID } from './verify-accounts';

// Examples of the webhooks routes (./example.ts says what examples are held to).

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
