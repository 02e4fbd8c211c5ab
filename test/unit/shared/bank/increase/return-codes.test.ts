import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debitReturnOf, statusReturnOf } from '#domain/ach-returns';
import { REPO_ROOT } from '#lib/repo-root';
import { type IncreaseReturnReason, NACHA_CODE_OF } from '#shared/bank/increase/return-codes';

/**
 * Each of Increase's return reasons names the NACHA code the SDK documents for it, and
 * docs/api.md#ach-returns is the table of every reason and what it sets, rendered here
 * from the code: a row that differs fails, naming it.
 */

const sdkTypes = createRequire(import.meta.url)
  .resolve('increase/resources/ach-prenotifications')
  .replace(/\.js$/, '.d.ts');

/** `- \`account_closed\` - Code R02.` in the SDK's comment on `return_reason_code` (wrapped lines too). */
function documentedCodes(): Map<string, string> {
  const source = readFileSync(sdkTypes, 'utf8');
  const comment = source.slice(source.indexOf('interface PrenotificationReturn'));
  return new Map(
    [...comment.matchAll(/- `([a-z0-9_]+)` -[\s*]+Code[\s*]+(R\d\d)\./g)].map((m) => [m[1] as string, m[2] as string]),
  );
}

const tick = (value: string) => `\`${value}\``;

function achReturnsTable(): string {
  const rows = (Object.entries(NACHA_CODE_OF) as [IncreaseReturnReason, (typeof NACHA_CODE_OF)[IncreaseReturnReason]][])
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([reason, code]) => {
      const s = statusReturnOf(code);
      const d = debitReturnOf(code);
      const status = `${tick(s.verification_status)} ${tick(s.status_reason)}, debits ${tick(s.debit_status)} ${tick(s.debit_status_reason)}`;
      return `| ${code} | ${tick(reason)} | ${status} | ${tick(d.debit_status)} ${tick(d.debit_status_reason)} |`;
    });
  return [
    '| code | Increase `return_reason_code` | status prenotification returned | debit prenotification returned |',
    '| ---- | ---------------------------- | ------------------------------- | ------------------------------ |',
    ...rows,
  ].join('\n');
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
    const page = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
    const start = page.indexOf('### ACH returns');
    const section = page.slice(start, page.indexOf('\n#', start + 1));
    const table = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .join('\n');
    const expected = achReturnsTable();
    expect(table.split('\n')).toEqual(expected.split('\n'));
  });
});
