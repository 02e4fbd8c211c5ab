import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { Person } from '#domain/person';
import { personItem } from '#shared/db/persons/item';
import { FieldCipher } from '#shared/field-cipher/field-cipher';

/**
 * The field key of unit tests: fixed, so a fixture can hold what a repository stores and a
 * test can open it (the handler harness gives it to the handlers; a test of pure code that
 * reads a stored item sets it with `setDependencies({ fieldCipher })`).
 */
export const TEST_FIELD_CIPHER = new FieldCipher(Buffer.alloc(32, 9));

/** An account number as an account item holds it: sealed under the test field key for its tenant and id. */
export const sealedAccountNumber = (accountNumber: string, tenant: string, id: string) =>
  TEST_FIELD_CIPHER.sealWithin({ account_number: accountNumber }, { tenant, record: id }, 'verify_account');

/** A stored verify account item as DynamoDB holds it (keys and storage-only fields included, the account number sealed). */
export const storedAccountItem = (id: string, over: Record<string, unknown> = {}) => {
  const item = {
    pk: `T#t1#VA#${id}`,
    sk: 'VA',
    entity: 'verify_account',
    tenant: 't1',
    id,
    type: 'status',
    created_at: '2026-11-18T12:00:00.000Z',
    updated_at: '2026-11-18T12:00:00.000Z',
    account_number: '1234567890',
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
    verification_status: 'pending',
    debit_status: 'pending',
    estimated_verification_date: '2026-11-18T00:00:00.000Z',
    control_attempts: 0,
    version: 1,
    ...over,
  };
  return { ...item, ...sealedAccountNumber(item.account_number, item.tenant, id) };
};

/** An SQS record as Lambda's event source mapping delivers it; a non-string body is JSON-encoded. */
export const sqsRecord = (messageId: string, body: unknown, receiveCount = 1) =>
  ({
    messageId,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSRecord;

export const sqsBatch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

/** A stored person item of tenant `tenant` as DynamoDB holds it (no SSN), at identity revision 1. */
export function storedPersonItem(tenant: string, id: string, over: Partial<Person> = {}) {
  const person: Person = {
    id,
    tenant,
    customer_reference_id: 'cust-1',
    first_name: 'Jane',
    last_name: 'Doe',
    date_of_birth: '1980-04-02',
    has_ssn: false,
    status: 'created',
    created_at: '2026-01-15T10:00:00.000Z',
    updated_at: '2026-01-15T10:00:00.000Z',
    identification_attempts: 0,
    version: 1,
    ...over,
  };
  return { ...personItem(person), identity_rev: 1 };
}
