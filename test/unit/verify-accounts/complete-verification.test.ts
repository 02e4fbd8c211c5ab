import { describe, expect, it, vi } from 'vitest';
import { settleVerification } from '#functions/verify-accounts/complete-verification';
import { IncreaseBank } from '#shared/bank/increase/increase-bank';
import { SandboxBank } from '#shared/bank/sandbox-bank';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { setDependencies } from '#shared/dependencies';
import { actingFor } from '#shared/tenant-scope';
import { ACCOUNT_ID, FRIDAY, functionUnderTest, TENANT } from '#test/support/handler-harness';
import { useSettlingHarness } from '#test/support/settling-harness';

/**
 * Settling a verification (the worker's step, which the notice route and the return
 * windows reuse on real rails): the SSN or tax id is opened only for a bank that checks
 * ownership with it. Increase answers every field `not_found` whatever it is given, so its
 * value is never decrypted for it, and the answer stays what it was.
 */
const { harness, givenAccount, updates } = useSettlingHarness();
const SSN_CIPHERTEXT = 'ciphertext-of-the-ssn';
const VALID = { verification_status: 'valid', debit_status: 'valid' } as const;

/** An ownership account whose SSN is stored encrypted beside it, as the create route stores it. */
function givenOwnershipAccount(ssnPlaintext: string) {
  givenAccount({
    type: 'status_ownership',
    person: { first_name: 'Jane', last_name: 'Doe' },
    has_ssn: true,
    ownership_status: 'pending',
    ownership_secret: SSN_CIPHERTEXT,
  });
  return vi.spyOn(harness.cipher, 'decrypt').mockResolvedValue(ssnPlaintext);
}

/** Settles the stored account as a function of `row` does: read with its secret, then settled, acting for its tenant. */
const settleAs = (row: string) =>
  functionUnderTest(row, () =>
    actingFor(TENANT, async () => {
      const found = await verifyAccounts().getWithSecret(TENANT, ACCOUNT_ID);
      return settleVerification(found!.account, found!.ownershipSecret, VALID);
    }),
  );

/** What the settling write stored: the values of its one UpdateItem. */
const written = () => Object.values(updates()[0]?.ExpressionAttributeValues ?? {});

describe('settling a verification: the SSN is opened only for a bank that checks ownership', () => {
  it('on Increase (ACH carries no ownership), never decrypts the SSN, and still answers not_found for every field supplied', async () => {
    const decrypt = givenOwnershipAccount('078051120');
    setDependencies({
      bank: new IncreaseBank({
        apiKey: 'key_test',
        webhookSecret: 'whsec_test',
        accountId: 'account_in71c4amph0vgo2qllky',
        // Never reached: ownership asks Increase nothing.
        baseURL: 'http://127.0.0.1:9',
      }),
    });

    await settleAs('BankNotice')();

    expect(decrypt).not.toHaveBeenCalled();
    expect(written()).toContainEqual({
      first_name: 'Jane',
      last_name: 'Doe',
      first_name_match: 'not_found',
      last_name_match: 'not_found',
      ssn_match: 'not_found',
    });
    expect(written()).toContain('not_found');
  });

  it('on the sandbox bank, decrypts the SSN under its account’s context and matches it (111111111: not_a_match)', async () => {
    const decrypt = givenOwnershipAccount('111111111');
    setDependencies({ bank: new SandboxBank(() => FRIDAY) });

    await settleAs('VerificationWorker')();

    expect(decrypt).toHaveBeenCalledWith(SSN_CIPHERTEXT, {
      tenant: TENANT,
      verify_account_id: ACCOUNT_ID,
      purpose: 'ownership',
    });
    expect(written()).toContainEqual(expect.objectContaining({ ssn_match: 'not_a_match' }));
  });
});
