/**
 * What each route of the route table understands, keyed by route key: its body fields
 * (nested ones under their parent) and its query parameters. The route fuzz mixes these
 * names with random ones so the inputs reach validation's every branch, not only
 * `unknown_field`. A route added to lib/service without an entry here fails the fuzz.
 */
export interface RouteVocabulary {
  /** Top-level body fields; an object value names the fields of a nested object (or of a list's items). */
  readonly body?: Readonly<Record<string, readonly string[] | null>>;
  readonly query?: readonly string[];
}

const PAGING = ['index', 'size', 'start_time', 'end_time'];
const PERSON_BODY = {
  customer_reference_id: null,
  first_name: null,
  middle_name: null,
  last_name: null,
  date_of_birth: null,
  social_security_number: null,
  addresses: ['type', 'address1', 'address2', 'city', 'state', 'country', 'zip5'],
  contacts: ['type', 'value'],
  metadata: ['note', 'x'],
};
const CONFIGURATION_BODY = { url: null, event_types: null, enabled: null };

export const VOCABULARY: Readonly<Record<string, RouteVocabulary>> = {
  'POST /verify/accounts': {
    body: {
      account_number: null,
      routing_number: null,
      account_holder_name: null,
      type: null,
      email: null,
      sender_name: null,
      person: ['first_name', 'last_name', 'ssn', 'phone_number'],
      business: ['business_name', 'tax_id', 'phone_number'],
    },
  },
  'GET /verify/accounts': {
    query: [
      ...PAGING,
      'id',
      'account_number',
      'verification_status',
      'ownership_status',
      'control_status',
      'debit_status',
    ],
  },
  'GET /verify/accounts/{id}': {},
  'POST /verify/accounts/{id}/control': { body: { statement_code: null } },
  'POST /verify/accounts/{id}/debits': { body: {} },
  'POST /persons': { body: PERSON_BODY },
  'GET /persons': {
    query: [...PAGING, 'id', 'account_number', 'customer_reference_id', 'status', 'first_name', 'last_name'],
  },
  'GET /persons/{id}': {},
  'GET /screening/hits': { query: ['index', 'size', 'cursor', 'status', 'tenant', 'person_id'] },
  'POST /screening/hits/{id}/decision': { body: { decision: null, note: null } },
  'PATCH /persons/{id}': { body: PERSON_BODY },
  'PUT /persons/{id}': { body: PERSON_BODY },
  'PUT /persons': { body: PERSON_BODY },
  'DELETE /persons/{id}': {},
  'POST /local/sanctions/entries': { body: { name: null, date_of_birth: null } },
  'GET /events': { query: [...PAGING, 'event_type'] },
  'GET /events/{id}': {},
  'POST /events/{id}/redeliver': { body: {} },
  'POST /webhooks/invoke': { body: { event_type: null, data: ['id', 'first_name', 'status', 'account_number'] } },
  'POST /webhooks/configurations': { body: CONFIGURATION_BODY },
  'GET /webhooks/configurations': {},
  'PUT /webhooks/configurations/{id}': { body: CONFIGURATION_BODY },
  'DELETE /webhooks/configurations/{id}': {},
  'POST /webhooks/secret': {},
  'GET /webhooks/secret': {},
};
