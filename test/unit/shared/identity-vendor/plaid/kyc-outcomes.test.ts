import type { KYCCheckDetails } from 'plaid';
import { describe, expect, it } from 'vitest';
import {
  COMMERCIAL_OF,
  FIELD_REASON,
  type IdvStatus,
  type KycField,
  PO_BOX_OF,
  STATUS_OUTCOME,
  SUMMARY_MISMATCH,
  type Summary,
  verdictOf,
} from '#shared/identity-vendor/plaid/kyc-outcomes';
import { markdownTable, sectionTable, tick } from '#test/support/doc-tables';

/**
 * Every answer Plaid's Identity Verification documents (each status of an IDV, each summary
 * of each field of its KYC check) maps to what the person becomes and the Orum reason it
 * gives; docs/api.md#plaids-answers is that table, rendered here from the code.
 */

const WHAT_STATUS_DOES: Readonly<Record<(typeof STATUS_OUTCOME)[IdvStatus], string>> = {
  passed: '`verified` (unless the service’s own checks or screening reject)',
  failed: '`rejected`, with the reasons of the fields below',
  pending: '`created` until Plaid’s notice (or the next look) tells its end',
  unusable: '`created`: the identification fails, is retried, then dead-lettered (alarmed)',
};

const SENT_AS: Readonly<Record<KycField, string>> = {
  name: '`first_name`, `last_name`',
  date_of_birth: '`date_of_birth`',
  id_number: '`social_security_number`, as `us_ssn`',
  address: 'the home address',
  phone_number: 'a `phone` contact that is a US number',
};

function plaidAnswersTable(): string[] {
  const statuses = markdownTable(
    ['Plaid `status`', 'the person'],
    (Object.keys(STATUS_OUTCOME) as IdvStatus[]).map((status) => [
      tick(status),
      WHAT_STATUS_DOES[STATUS_OUTCOME[status]],
    ]),
  );
  const summaries = Object.keys(SUMMARY_MISMATCH) as Summary[];
  const fields = markdownTable(
    ['KYC field (sent as)', ...summaries.map(tick)],
    (Object.keys(FIELD_REASON) as KycField[]).map((field) => [
      `${tick(field)} (${SENT_AS[field]})`,
      ...summaries.map((summary) => (SUMMARY_MISMATCH[summary] ? tick(FIELD_REASON[field]) : '–')),
    ]),
  );
  const address = markdownTable(
    ['`address` of a failed check', 'reason'],
    [
      ...Object.entries(PO_BOX_OF).map(([value, box]) => [
        `\`po_box: ${value}\``,
        box ? '`invalid_address_type`' : '–',
      ]),
      ...Object.entries(COMMERCIAL_OF).map(([value, bad]) => [
        `\`type: ${value}\``,
        bad ? '`invalid_address_type`' : '–',
      ]),
      ['no field a mismatch, or no `kyc_check`', '`unverified_identity`'],
    ],
  );
  return [...statuses, ...fields, ...address];
}

const summary = (value: Summary) => ({ summary: value });
const kyc = (over: Partial<Record<KycField, Summary>> = {}, address: object = {}): KYCCheckDetails =>
  ({
    status: 'failed',
    name: summary(over.name ?? 'match'),
    date_of_birth: summary(over.date_of_birth ?? 'match'),
    id_number: summary(over.id_number ?? 'match'),
    phone_number: { ...summary(over.phone_number ?? 'no_input'), area_code: 'no_input' },
    address: { ...summary(over.address ?? 'match'), po_box: 'no', type: 'residential', ...address },
  }) as KYCCheckDetails;

describe("Plaid's answers", () => {
  it('pass a person whose IDV is success, whatever a field says', () => {
    expect(verdictOf({ status: 'success' as never, kyc_check: kyc({ phone_number: 'no_match' }) })).toEqual({
      outcome: 'passed',
      reasons: [],
    });
  });

  it('reject a failed IDV with the reason of each field that does not match, in the fields’ order', () => {
    const answer = kyc({ id_number: 'no_match', name: 'no_match', phone_number: 'no_match' });
    expect(verdictOf({ status: 'failed' as never, kyc_check: answer })).toEqual({
      outcome: 'failed',
      reasons: ['invalid_name', 'invalid_ssn', 'invalid_phone'],
    });
  });

  it('reject a failed IDV whose address is a P.O. box or commercial with invalid_address_type', () => {
    for (const address of [{ po_box: 'yes' }, { type: 'commercial' }]) {
      expect(verdictOf({ status: 'failed' as never, kyc_check: kyc({}, address) })).toEqual({
        outcome: 'failed',
        reasons: ['invalid_address_type'],
      });
    }
  });

  it('reject a failed IDV with no mismatching field, or no KYC check, as unverified_identity', () => {
    const nothing = kyc({ name: 'no_data', date_of_birth: 'no_data', id_number: 'no_data', address: 'no_data' });
    expect(verdictOf({ status: 'failed' as never, kyc_check: nothing })).toMatchObject({
      reasons: ['unverified_identity'],
    });
    expect(verdictOf({ status: 'failed' as never, kyc_check: null })).toMatchObject({
      reasons: ['unverified_identity'],
    });
  });

  it('keep an active or pending_review IDV pending, and take an expired or canceled one for no answer', () => {
    for (const status of ['active', 'pending_review'] as const) {
      expect(verdictOf({ status: status as never, kyc_check: null })).toEqual({ outcome: 'pending', status });
    }
    for (const status of ['expired', 'canceled', 'a_status_newer_than_the_sdk'] as const) {
      expect(verdictOf({ status: status as never, kyc_check: null })).toMatchObject({ outcome: 'unusable' });
    }
  });

  it('are tabled in docs/api.md#plaids-answers exactly as the code maps them, every row', () => {
    expect(
      sectionTable('api.md', "#### Plaid's answers"),
      'docs/api.md#plaids-answers: write the rows as the code renders them',
    ).toEqual(plaidAnswersTable());
  });
});
