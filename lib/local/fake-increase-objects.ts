import type { ACHPrenotification, ACHPrenotificationCreateParams } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer, ACHTransferCreateParams } from 'increase/resources/ach-transfers';

// Increase's objects as the fake (fake-increase.ts) makes them from a create request: the
// SDK's own response types, so an SDK change breaks this file's build; and the refusals
// Increase answers 400 with.

export type Invalid = { error: string };

export function newPrenotification(
  p: ACHPrenotificationCreateParams,
  key: string | undefined,
  // Called once the request is accepted: Increase takes no id for a request it refuses.
  making: () => { id: string; createdAt: Date; status: ACHPrenotification['status'] },
): ACHPrenotification | Invalid {
  if (!p.account_id || !p.account_number || !p.routing_number) return { error: 'Missing required parameters.' };
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
  if (!p.account_id || !p.account_number || !p.routing_number || !p.statement_descriptor) {
    return { error: 'Missing required parameters.' };
  }
  // Nacha's field widths: Increase refuses longer values.
  if ((p.company_entry_description?.length ?? 0) > 10) return { error: 'company_entry_description is too long.' };
  if ((p.individual_name?.length ?? 0) > 22) return { error: 'individual_name is too long.' };
  if ((p.company_name?.length ?? 0) > 16) return { error: 'company_name is too long.' };
  const made = making();
  return {
    id: made.id,
    account_id: p.account_id,
    account_number: p.account_number,
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
    routing_number: p.routing_number,
    settlement: null,
    standard_entry_class_code: p.standard_entry_class_code ?? 'corporate_credit_or_debit',
    statement_descriptor: p.statement_descriptor,
    status: 'pending_submission',
    submission: null,
    transaction_id: null,
    type: 'ach_transfer',
  };
}
