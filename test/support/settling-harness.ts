import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, givenStored, type Harness, storedAccount, useHandlerHarness } from './handler-harness';

/**
 * What the unit tests of settling a verification share: the verification worker's step,
 * which the notice route and the return windows reuse on real rails. The handler harness
 * (./handler-harness.ts), one account stored, and the UpdateItems the settling sent (a
 * settlement is one write). Call once at the top of a test file.
 */
export function useSettlingHarness(): {
  harness: Harness;
  /** The account as the repository stores it (`storedAccount` with `account` over it); its update answers it with `afterUpdate`. */
  givenAccount: (account?: Record<string, unknown>, afterUpdate?: Record<string, unknown>) => void;
  /** The input of each UpdateItem sent, in order. */
  updates: () => UpdateCommand['input'][];
} {
  const harness = useHandlerHarness();
  return {
    harness,
    givenAccount: (account = {}, afterUpdate = {}) => givenStored(storedAccount(account), afterUpdate),
    updates: () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input),
  };
}
