import { expect } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { personBody } from '#test/integration/persons/support';
import { type RecordingApi, STATEMENT_CODES } from '../support';

/** What every scenario receives, and the helpers they share. */
export interface Context {
  readonly runtime: LocalRuntime;
  /** The tenant whose data this is. */
  readonly alice: RecordingApi;
  /** Another tenant: every id of Alice's answers it 404. */
  readonly bob: RecordingApi;
  /** The service's operator (`review:screening`): reviews every tenant's screening hits. */
  readonly operator: RecordingApi;
  /** Alice's bearer tokens, and a webhook secret that is not hers (sent where it does not belong). */
  readonly tokens: { readonly alice: string; readonly expired: string };
  readonly strayWebhookSecret: string;
  readonly receiverUrl: (path: string) => string;
  /** What scenarios hand on to later ones. */
  readonly state: {
    webhookSecrets: string[];
    configurationId?: string;
    accounts: Record<'status' | 'ownership' | 'control', string>;
    persons: Record<'verified' | 'closed', string>;
    eventId?: string;
    hitId?: string;
  };
}

export type Scenario = (context: Context) => Promise<void>;

export const digits = (secret: { forms: readonly string[] }) => secret.forms[1] as string;
export const dashed = (secret: { forms: readonly string[] }) => secret.forms[0] as string;
export const code = (index: number) => STATEMENT_CODES[index]?.forms[0] as string;

export const ok = (response: { status: number }, status = 200) => expect(response.status).toBe(status);
export const refused = (
  response: { status: number; body: { error_code?: string } },
  status: number,
  errorCode?: string,
) => {
  expect(response.status).toBe(status);
  if (errorCode) expect(response.body.error_code).toBe(errorCode);
};

/** An address and date of birth, so identification runs every check. */
export const person = (ssn: string, over: Record<string, unknown> = {}) =>
  personBody({ social_security_number: ssn, ...over });
