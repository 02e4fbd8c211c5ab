import { describe, expect, it } from 'vitest';
import { type CreditReturn, creditReturnOf, debitReturnOf, statusReturnOf } from '#domain/ach-returns';
import { type IncreaseReturnReason, NACHA_CODE_OF } from '#shared/bank/increase/return-codes';
import { markdownTable, sectionTable, tick } from '#test/support/doc-tables';
import { increaseTypes } from '#test/support/increase-types';

/**
 * Each of Increase's return reasons names the NACHA code the SDK documents for it, and
 * docs/api.md#ach-returns is the table of every reason and what it sets, rendered here
 * from the code: a row that differs fails, naming it.
 */

/** `- \`account_closed\` - Code R02.` in the SDK's comment on `return_reason_code` (wrapped lines too). */
function documentedCodes(): Map<string, string> {
  const source = increaseTypes('ach-prenotifications');
  const comment = source.slice(source.indexOf('interface PrenotificationReturn'));
  return new Map(
    [...comment.matchAll(/- `([a-z0-9_]+)` -[\s*]+Code[\s*]+(R\d\d)\./g)].map((m) => [m[1] as string, m[2] as string]),
  );
}

function achReturnsTable(): string[] {
  const rows = (Object.entries(NACHA_CODE_OF) as [IncreaseReturnReason, (typeof NACHA_CODE_OF)[IncreaseReturnReason]][])
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([reason, code]) => {
      const s = statusReturnOf(code);
      const d = debitReturnOf(code);
      const status = `${tick(s.verification_status)} ${tick(s.status_reason)}, debits ${tick(s.debit_status)} ${tick(s.debit_status_reason)}`;
      return [
        code,
        tick(reason),
        status,
        `${tick(d.debit_status)} ${tick(d.debit_status_reason)}`,
        credit(creditReturnOf(code)),
      ];
    });
  return markdownTable(
    [
      'code',
      'Increase `return_reason_code`',
      'status prenotification returned',
      'debit prenotification returned',
      'statement credit returned',
    ],
    rows,
  );
}

function credit(returned: CreditReturn): string {
  const control = `control ${tick(returned.control_status)}`;
  if (!returned.verification_status) return control;
  return `${control}; ${tick(returned.verification_status)} ${tick(returned.status_reason ?? '')}, debits ${tick(returned.debit_status ?? '')} ${tick(returned.debit_status_reason ?? '')}`;
}

describe("Increase's return reasons", () => {
  it('each map to the NACHA code the SDK documents for it', () => {
    const documented = documentedCodes();
    expect(documented.size).toBe(Object.keys(NACHA_CODE_OF).length);
    expect(Object.fromEntries(documented)).toEqual(NACHA_CODE_OF);
  });

  it('map to distinct NACHA codes', () => {
    const codes = Object.values(NACHA_CODE_OF);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('are tabled in docs/api.md#ach-returns exactly as the code maps them, every row', () => {
    expect(
      sectionTable('api.md', '### ACH returns'),
      'docs/api.md#ach-returns: write the rows as the code renders them',
    ).toEqual(achReturnsTable());
  });
});
