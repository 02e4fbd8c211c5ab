import { randomUUID } from 'node:crypto';

/**
 * The sample resource a test event carries when `POST /webhooks/invoke` gives no `data`:
 * a person in the status the event type announces, or a verified account. Fictional
 * values only.
 */
export function sampleEventData(eventType: string, at: string): Record<string, unknown> {
  if (eventType.startsWith('person_')) {
    const status = eventType.slice('person_'.length);
    return {
      person: {
        id: randomUUID(),
        customer_reference_id: 'sample-customer-1',
        first_name: 'Sam',
        last_name: 'Sample',
        date_of_birth: '1990-01-01',
        status,
        ...(status === 'rejected' && {
          status_reasons: [
            { reason_code: 'invalid_ssn', reason_code_message: 'The Social Security number is not valid.' },
          ],
        }),
        ...(status === 'restricted' && {
          status_reasons: [
            {
              reason_code: 'matched_watchlist',
              reason_code_message: 'The person matched one or more sanctions lists.',
            },
          ],
        }),
        ...(status === 'closed' && { closed_at: at }),
        created_at: at,
        updated_at: at,
      },
    };
  }
  return {
    account: {
      id: randomUUID(),
      created_at: at,
      updated_at: at,
      type: 'status',
      account_number: '1234567890',
      routing_number: '021000021',
      account_holder_name: 'Sam Sample',
      verification_status: 'valid',
      debit_status: 'valid',
      estimated_verification_date: `${at.slice(0, 10)}T00:00:00.000Z`,
    },
  };
}
