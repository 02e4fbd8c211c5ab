import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import type { AchChangeCode } from '#domain/ach-changes';

// Increase names a Notification of Change's code by words (`incorrect_account_number`); the
// domain knows NACHA's codes (C01). Keyed by the SDK's own enum, so an SDK that adds or
// renames a code fails the type-check here until it is mapped. The SDK does not name the
// NACHA codes: each row follows Nacha's title for its code (Appendix Five of the Rules),
// which Increase's words repeat; a transfer's NOC carries the same enum.
// test/unit/shared/bank/increase/change-codes.test.ts holds the table to the SDK's enum and
// to its order, which follows Nacha's numbering.

export type IncreaseChangeCode = ACHPrenotification.NotificationsOfChange['change_code'];

export const NACHA_CHANGE_CODE_OF: Readonly<Record<IncreaseChangeCode, AchChangeCode>> = {
  incorrect_account_number: 'C01',
  incorrect_routing_number: 'C02',
  incorrect_routing_number_and_account_number: 'C03',
  incorrect_transaction_code: 'C05',
  incorrect_account_number_and_transaction_code: 'C06',
  incorrect_routing_number_account_number_and_transaction_code: 'C07',
  incorrect_receiving_depository_financial_institution_identification: 'C08',
  incorrect_individual_identification_number: 'C09',
  addenda_format_error: 'C13',
  incorrect_standard_entry_class_code_for_outbound_international_payment: 'C14',
  // The refused NOC codes, in Nacha's order.
  misrouted_notification_of_change: 'C61',
  incorrect_trace_number: 'C62',
  incorrect_company_identification_number: 'C63',
  incorrect_identification_number: 'C64',
  incorrectly_formatted_corrected_data: 'C65',
  incorrect_discretionary_data: 'C66',
  routing_number_not_from_original_entry_detail_record: 'C67',
  depository_financial_institution_account_number_not_from_original_entry_detail_record: 'C68',
  incorrect_transaction_code_by_originating_depository_financial_institution: 'C69',
};
