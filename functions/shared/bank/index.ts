import { now, port } from '#shared/dependencies';
import type { BankProvider } from './bank-provider';
import { SandboxBank } from './sandbox-bank';

/** The sandbox bank is the only provider today (docs/sandbox.md). */
export const bank = /* @__PURE__ */ port('bank', () => new SandboxBank(now));

declare module '#shared/dependencies' {
  interface Dependencies {
    bank: BankProvider;
  }
}
