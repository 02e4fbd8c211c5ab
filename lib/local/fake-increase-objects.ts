import type { ACHPrenotification, ACHPrenotificationCreateParams } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer, ACHTransferCreateParams } from 'increase/resources/ach-transfers';

// Increase's objects as the fake (fake-increase.ts) makes them from a create request: the
// SDK's own response types, so an SDK change breaks this file's build; and the refusals
// Increase answers 400 with (docs/decisions.md#the-increase-fake-refuses-what-increase-refuses-issue-43).

export type Invalid = { error: string };

/** Whether a create was refused (an object of Increase's always has a `type`). */
export const isInvalid = (made: object): made is Invalid => !('type' in made);

/**
 * Increase's published limits on the fields this service sends, which are Nacha's record
 * widths: the receiver's name 22 characters, the originator's 16, the entry description
 * 10; a routing number of 9 digits, an account number of 1–17. Nacha's alphameric fields
 * take printable ASCII only (0x20–0x7E): the fake refuses anything else rather than guess
 * how a bank would print it.
 */
const TEXT_LIMITS = { individual_name: 22, company_name: 16, company_entry_description: 10 } as const;
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/** The first refusal Increase answers a create with, or undefined when the fields are fine. */
function refusal(p: ACHPrenotificationCreateParams | ACHTransferCreateParams): Invalid | undefined {
  if (!p.account_id || !p.account_number || !p.routing_number) return { error: 'Missing required parameters.' };
  if (!/^\d{9}$/.test(p.routing_number)) return { error: 'routing_number must be 9 digits.' };
  if (!/^\d{1,17}$/.test(p.account_number)) return { error: 'account_number must be 1 to 17 digits.' };
  for (const [field, max] of Object.entries(TEXT_LIMITS)) {
    const value = p[field as keyof typeof TEXT_LIMITS];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > max) return { error: `${field} is too long (at most ${max}).` };
    if (!PRINTABLE_ASCII.test(value)) return { error: `${field} must be printable ASCII.` };
  }
  return undefined;
}

export function newPrenotification(
  p: ACHPrenotificationCreateParams,
  key: string | undefined,
  // Called once the request is accepted: Increase takes no id for a request it refuses.
  making: () => { id: string; createdAt: Date; status: ACHPrenotification['status'] },
): ACHPrenotification | Invalid {
  const refused = refusal(p);
  if (refused) return refused;
  const made = making();
  return {
    id: made.id,
    account_id: p.account_id,
    account_number: p.account_number,
    addendum: p.addendum ?? null,
    company_descriptive_date: p.company_descriptive_date ?? null,
    company_discretionary_data: p.company_discretionary_data ?? null,
    company_entry_description: p.company_entry_description ?? null,
    company_name: p.company_name ?? null,
    created_at: made.createdAt.toISOString(),
    credit_debit_indicator: p.credit_debit_indicator ?? null,
    effective_date: p.effective_date ?? null,
    idempotency_key: key ?? null,
    individual_id: p.individual_id ?? null,
    individual_name: p.individual_name ?? null,
    notifications_of_change: [],
    prenotification_return: null,
    routing_number: p.routing_number,
    standard_entry_class_code: p.standard_entry_class_code ?? null,
    status: made.status,
    type: 'ach_prenotification',
  };
}

export function newTransfer(
  p: ACHTransferCreateParams,
  key: string | undefined,
  making: () => { id: string; createdAt: Date },
): ACHTransfer | Invalid {
  if (!p.statement_descriptor) return { error: 'Missing required parameters.' };
  const refused = refusal(p);
  if (refused) return refused;
  const made = making();
  return {
    id: made.id,
    account_id: p.account_id,
    // Present: refusal() checked them.
    account_number: p.account_number as string,
    acknowledgement: null,
    addenda: null,
    amount: p.amount,
    approval: null,
    cancellation: null,
    company_descriptive_date: p.company_descriptive_date ?? null,
    company_discretionary_data: p.company_discretionary_data ?? null,
    company_entry_description: p.company_entry_description ?? null,
    company_id: '1234987601',
    company_name: p.company_name ?? null,
    created_at: made.createdAt.toISOString(),
    created_by: null,
    currency: 'USD',
    destination_account_holder: p.destination_account_holder ?? 'unknown',
    external_account_id: null,
    funding: p.funding ?? 'checking',
    idempotency_key: key ?? null,
    inbound_funds_hold: null,
    individual_id: p.individual_id ?? null,
    individual_name: p.individual_name ?? null,
    network: 'ach',
    notifications_of_change: [],
    pending_transaction_id: null,
    preferred_effective_date: { date: null, settlement_schedule: 'same_day' },
    return: null,
    routing_number: p.routing_number as string,
    settlement: null,
    standard_entry_class_code: p.standard_entry_class_code ?? 'corporate_credit_or_debit',
    statement_descriptor: p.statement_descriptor,
    // An account set to require approvals holds every transfer until someone approves it.
    status: p.require_approval ? 'pending_approval' : 'pending_submission',
    submission: null,
    transaction_id: null,
    type: 'ach_transfer',
  };
}
