import { AT, type Example, LATER } from './example';
import { PERSON_ID } from './persons';

// Examples of the screening-review routes (./example.ts says what examples are held to).

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
