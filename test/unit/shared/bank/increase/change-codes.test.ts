import type { ACHTransfer } from 'increase/resources/ach-transfers';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ACH_CHANGE_CODES, debitChangeOf, statusChangeOf } from '#domain/ach-changes';
import type { DebitReturn } from '#domain/ach-returns';
import { type IncreaseChangeCode, NACHA_CHANGE_CODE_OF } from '#shared/bank/increase/change-codes';
import { markdownTable, sectionTable, tick } from '#test/support/doc-tables';
import { increaseTypes } from '#test/support/increase-types';

/**
 * Each of Increase's change codes names a NACHA code, and docs/api.md#notifications-of-change
 * is the table of every one and what it sets, rendered here from the code: a row that
 * differs fails, naming it.
 */

/** The values of `change_code: 'a' | 'b' | …;` in a resource's declarations. */
function declaredChangeCodes(resource: string): string[] {
  const union = /change_code: ([^;]+);/.exec(increaseTypes(resource))?.[1] ?? '';
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);
}

const NO_EFFECT = 'no effect (valid as given)';
const debitCell = (debit: DebitReturn) => `${tick(debit.debit_status)} ${tick(debit.debit_status_reason)}`;

function notificationsOfChangeTable(): string[] {
  const rows = (Object.entries(NACHA_CHANGE_CODE_OF) as [IncreaseChangeCode, string][])
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([word, code]) => {
      const s = statusChangeOf(code);
      const d = debitChangeOf(code);
      const status = s ? `${tick(s.verification_status)} ${tick(s.status_reason)}, debits ${debitCell(s)}` : NO_EFFECT;
      return [code, tick(word), status, d ? debitCell(d) : NO_EFFECT];
    });
  return markdownTable(
    ['code', 'Increase `change_code`', 'on the status prenotification', 'on the debit prenotification'],
    rows,
  );
}

describe("Increase's change codes", () => {
  it("are the table's keys, exactly: each value of the SDK's enum is mapped, and no other", () => {
    expect(declaredChangeCodes('ach-prenotifications').sort()).toEqual(Object.keys(NACHA_CHANGE_CODE_OF).sort());
  });

  it("are a transfer's too: one table serves the NOCs of prenotifications and transfers", () => {
    expectTypeOf<ACHTransfer.NotificationsOfChange['change_code']>().toEqualTypeOf<IncreaseChangeCode>();
    expect(declaredChangeCodes('ach-transfers')).toEqual(declaredChangeCodes('ach-prenotifications'));
  });

  it("follow Nacha's numbering in the SDK's order: the SDK lists its codes as Nacha numbers them", () => {
    const inSdkOrder = declaredChangeCodes('ach-prenotifications').map(
      (word) => NACHA_CHANGE_CODE_OF[word as IncreaseChangeCode],
    );
    expect(inSdkOrder).toEqual([...inSdkOrder].sort());
  });

  it('map to distinct NACHA codes the domain knows', () => {
    const codes = Object.values(NACHA_CHANGE_CODE_OF);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(ACH_CHANGE_CODES).toContain(code);
  });

  it('are tabled in docs/api.md#notifications-of-change exactly as the code maps them, every row', () => {
    expect(
      sectionTable('api.md', '### Notifications of change'),
      'docs/api.md#notifications-of-change: write the rows as the code renders them',
    ).toEqual(notificationsOfChangeTable());
  });
});
