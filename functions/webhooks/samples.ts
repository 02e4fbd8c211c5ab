import { randomUUID } from 'node:crypto';
import { type EventRecord, eventRecord, type OrumEventType } from '#functions/event-catalogue/kinds';

/**
 * The sample record a test event carries when `POST /webhooks/invoke` gives no `data`,
 * shaped as Orum's trigger schema describes the record of its kind, in the status the kind
 * announces (`<record>_unverified`, a step back, is `created`). Fictional values only.
 */
export function sampleEventData(eventType: OrumEventType, at: string): Record<string, unknown> {
  const record = eventRecord(eventType);
  const verb = eventType.slice(record === 'account' ? 'verify_account_'.length : record.length + 1);
  const status = verb === 'unverified' ? 'created' : verb;
  return { [record]: SAMPLES[record](status, at) };
}

const CUSTOMER = 'sample-customer-1';
const ACCOUNT_NUMBER = '1234567890';
const ROUTING_NUMBER = '021000021';

type Sample = (status: string, at: string) => Record<string, unknown>;

const stamped = (at: string) => ({ id: randomUUID(), created_at: at, updated_at: at });

/** What a person in `status` carries beside it: the reasons of a rejection or restriction, the closing time. */
function personStatusDetails(status: string, at: string): Record<string, unknown> {
  if (status === 'rejected') {
    return {
      status_reasons: [{ reason_code: 'invalid_ssn', reason_code_message: 'The Social Security number is not valid.' }],
    };
  }
  if (status === 'restricted') {
    return {
      status_reasons: [
        { reason_code: 'matched_watchlist', reason_code_message: 'The person matched one or more sanctions lists.' },
      ],
    };
  }
  return status === 'closed' ? { closed_at: at } : {};
}

const SAMPLES: Record<EventRecord, Sample> = {
  person: (status, at) => ({
    ...stamped(at),
    customer_reference_id: CUSTOMER,
    first_name: 'Sam',
    last_name: 'Sample',
    date_of_birth: '1990-01-01',
    status,
    ...personStatusDetails(status, at),
  }),
  account: (_status, at) => ({
    ...stamped(at),
    type: 'status',
    account_number: ACCOUNT_NUMBER,
    routing_number: ROUTING_NUMBER,
    account_holder_name: 'Sam Sample',
    verification_status: 'valid',
    debit_status: 'valid',
    estimated_verification_date: `${at.slice(0, 10)}T00:00:00.000Z`,
  }),
  business: (status, at) => ({
    ...stamped(at),
    customer_reference_id: CUSTOMER,
    legal_name: 'Sample Holdings LLC',
    business_name: 'Sample Shop',
    entity_type: 'llc',
    tax_id_type: 'ein',
    status,
    ...(status === 'closed' && { closed_at: at }),
  }),
  external_account: (status, at) => ({
    ...stamped(at),
    account_reference_id: 'sample-account-1',
    customer_reference_id: CUSTOMER,
    customer_resource_type: 'person',
    account_type: 'checking',
    account_number: ACCOUNT_NUMBER,
    routing_number: ROUTING_NUMBER,
    account_holder_name: 'Sam Sample',
    status,
    ...(status === 'closed' && { closed_at: at }),
  }),
  transfer: (status, at) => ({
    ...stamped(at),
    transfer_reference_id: 'sample-transfer-1',
    amount: 100,
    currency: 'USD',
    speed: 'standard',
    status: status === 'updated' ? 'completed' : status,
    source: { customer_reference_id: 'sample-enterprise', account_reference_id: 'sample-funding-account' },
    destination: { customer_reference_id: CUSTOMER, account_reference_id: 'sample-account-1' },
  }),
  subledger: (status, at) => ({
    ...stamped(at),
    subledger_reference_id: 'sample-subledger-1',
    customer_reference_id: CUSTOMER,
    customer_resource_type: 'person',
    status,
  }),
  book_transfer: (status, at) => ({
    ...stamped(at),
    book_transfer_reference_id: 'sample-book-transfer-1',
    amount: 100,
    currency: 'USD',
    status: status === 'updated' ? 'completed' : status,
    source: { subledger_reference_id: 'sample-subledger-1' },
    destination: { subledger_reference_id: 'sample-subledger-2' },
  }),
};
