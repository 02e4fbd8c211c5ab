import type { Construct } from 'constructs';
import {
  IDENTITY_VENDORS,
  type IdentityVendorName,
  PLAID_ENVIRONMENTS,
  type PlaidEnvironment,
} from '#shared/identity-vendor/vendors';
import { isUnset, roleArnOf } from './context-values';

/**
 * The CDK context keys that choose the identity vendor (docs/deploy.md#identity-vendor-plaid).
 * Values given on the command line arrive as strings, as they do in cdk.json.
 */
export const IDENTITY_VENDOR_CONTEXT = {
  vendor: 'identityVendor',
  plaidClientId: 'plaidClientId',
  plaidTemplateId: 'plaidTemplateId',
  plaidEnvironment: 'plaidEnvironment',
  breakGlassRoleArn: 'identityVendorSecretsBreakGlassRoleArn',
} as const;

/** Plaid's client ids: 24 hexadecimal characters. */
const PLAID_CLIENT_ID = /^[0-9a-f]{24}$/i;
/** Identity Verification templates: `idvtmp_` and letters and digits. */
const PLAID_TEMPLATE_ID = /^idvtmp_[A-Za-z0-9]{1,64}$/;

/** Plaid's settings in a stack that uses it: none of them secret (the API secret is in Secrets Manager). */
export interface PlaidContextSettings {
  /** `PLAID_CLIENT_ID`. */
  readonly clientId: string;
  /** The Identity Verification template whose only step is the KYC check (`PLAID_TEMPLATE_ID`). */
  readonly templateId: string;
  /**
   * Plaid's environment (`PLAID_ENVIRONMENT`): its Sandbox answers Plaid's test identities only.
   * @default 'sandbox'
   */
  readonly environment: PlaidEnvironment;
}

/** Which identity vendor IdentificationWorker calls, and its settings. */
export type IdentityVendorSettings =
  | { readonly vendor: 'sandbox' }
  | {
      readonly vendor: 'plaid';
      readonly plaid: PlaidContextSettings;
      /**
       * A role that may read the vendor's secret beside the functions that read it: the
       * operators' way in, for an emergency.
       * @default - none: only the functions' own roles may read it
       */
      readonly breakGlassRoleArn?: string;
    };

/** Whether the settings name a real vendor (a secret, signed notices, a webhook route). */
export const realVendor = (
  settings: IdentityVendorSettings,
): settings is Extract<IdentityVendorSettings, { vendor: 'plaid' }> => settings.vendor !== 'sandbox';

/** Reads and validates the identity vendor's context; throws with the key's name and the way out on bad input. */
export function identityVendorSettingsFromContext(scope: Construct): IdentityVendorSettings {
  const read = (key: string): unknown => scope.node.tryGetContext(key);
  const C = IDENTITY_VENDOR_CONTEXT;
  const vendor = read(C.vendor);
  const name: IdentityVendorName = isUnset(vendor) ? 'sandbox' : oneOf(C.vendor, vendor, IDENTITY_VENDORS);
  if (name === 'sandbox') {
    for (const key of [C.plaidClientId, C.plaidTemplateId, C.plaidEnvironment, C.breakGlassRoleArn]) {
      if (!isUnset(read(key))) {
        throw new Error(
          `context "${key}" is a Plaid setting, but context "${C.vendor}" is sandbox: add -c ${C.vendor}=plaid or drop it`,
        );
      }
    }
    return { vendor: 'sandbox' };
  }
  const environment = read(C.plaidEnvironment);
  const breakGlass = read(C.breakGlassRoleArn);
  return {
    vendor: 'plaid',
    plaid: {
      clientId: matching(
        C.plaidClientId,
        read(C.plaidClientId),
        PLAID_CLIENT_ID,
        'Plaid’s client_id (24 hexadecimal characters, in Plaid’s dashboard under Keys)',
      ),
      templateId: matching(
        C.plaidTemplateId,
        read(C.plaidTemplateId),
        PLAID_TEMPLATE_ID,
        'an Identity Verification template id such as idvtmp_52xR9LKo77r1Np, whose only step is the KYC check',
      ),
      environment: isUnset(environment) ? 'sandbox' : oneOf(C.plaidEnvironment, environment, PLAID_ENVIRONMENTS),
    },
    ...(!isUnset(breakGlass) && {
      breakGlassRoleArn: roleArnOf(C.breakGlassRoleArn, breakGlass, 'IdentityVendorBreakGlass'),
    }),
  };
}

function oneOf<T extends string>(key: string, value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw new Error(`context "${key}" must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function matching(key: string, value: unknown, pattern: RegExp, what: string): string {
  if (isUnset(value))
    throw new Error(`context "${key}" is required with ${IDENTITY_VENDOR_CONTEXT.vendor}=plaid: ${what}`);
  if (typeof value !== 'string' || !pattern.test(value))
    throw new Error(`context "${key}" must be ${what}; got ${JSON.stringify(value)}`);
  return value;
}
