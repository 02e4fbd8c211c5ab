import type { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { maybeJson } from './json-value';
import { type OperatorConfig, parseOperators } from './operators';
import { type PartnerConfig, parsePartners } from './partners';

/** An OAuth issuer that already exists (Okta, Auth0, another Cognito pool, ...). */
export interface ExternalIssuerConfig {
  /** Issuer URL exactly as in the tokens' `iss` claim (https). */
  readonly issuer: string;
  /** Accepted `aud` values (or `client_id` values when tokens carry no `aud`). */
  readonly audience: readonly string[];
  /**
   * Prepended verbatim to every route scope, separator included (e.g. `verify-service/`).
   * @default '' - tokens carry the bare scope names
   */
  readonly scopePrefix?: string;
}

export interface IdentityProps {
  /**
   * Partners: Cognito mode creates an app client for each; in external-issuer mode only
   * their `clientIds` (and `aliases`) are used, for alias records. In either mode the stack
   * writes a settings record for each partner with a `kycMode`.
   * @default - none; Cognito mode then fails synthesis, since an authorizer needs an audience
   */
  readonly partners?: readonly PartnerConfig[];
  /**
   * The service's operators: Cognito mode creates an app client for each holding the
   * operator scopes only (docs/deploy.md#operators).
   * @default - none; no one can review screening hits
   */
  readonly operators?: readonly OperatorConfig[];
  /**
   * Trust an existing issuer instead of creating a Cognito user pool.
   * @default - a Cognito user pool is created
   */
  readonly externalIssuer?: ExternalIssuerConfig;
  /**
   * Prefix of the Cognito domain (`<prefix>.auth.<region>.amazoncognito.com`), which must
   * be unique within the region across all AWS accounts.
   * @default - `<stack name>-<account id>`, lower-cased
   */
  readonly domainPrefix?: string;
  /**
   * Lifetime of the access tokens partners obtain.
   * @default Duration.hours(1)
   */
  readonly accessTokenValidity?: Duration;
}

/**
 * The CDK context keys that configure who may call the API (docs/deploy.md#context-keys). Values
 * given on the command line (`-c partners='[...]'`) arrive as strings, values in
 * cdk.json as JSON, so both are accepted.
 */
export const IDENTITY_CONTEXT = {
  partners: 'partners',
  operators: 'operators',
  jwtIssuer: 'jwtIssuer',
  jwtAudience: 'jwtAudience',
  jwtScopePrefix: 'jwtScopePrefix',
  cognitoDomainPrefix: 'cognitoDomainPrefix',
} as const;

/** Reads and validates the identity context; throws with the key's name on bad input. */
export function identityPropsFromContext(scope: Construct): IdentityProps {
  const read = (key: string): unknown => scope.node.tryGetContext(key);
  const issuer = optionalString(read(IDENTITY_CONTEXT.jwtIssuer), IDENTITY_CONTEXT.jwtIssuer);
  if (issuer !== undefined) {
    return {
      externalIssuer: {
        issuer,
        audience: stringList(read(IDENTITY_CONTEXT.jwtAudience), IDENTITY_CONTEXT.jwtAudience),
        scopePrefix: optionalString(read(IDENTITY_CONTEXT.jwtScopePrefix), IDENTITY_CONTEXT.jwtScopePrefix),
      },
      // Only their client ids (alias records) and KYC modes (settings records) matter here.
      ...people(read),
    };
  }
  return {
    ...people(read),
    domainPrefix: optionalString(read(IDENTITY_CONTEXT.cognitoDomainPrefix), IDENTITY_CONTEXT.cognitoDomainPrefix),
  };
}

/** The partners and the operators, every client id listed once across both, no operator named as a partner. */
function people(read: (key: string) => unknown): Pick<IdentityProps, 'partners' | 'operators'> {
  const seen = new Set<string>();
  const listed = parsePartners(read(IDENTITY_CONTEXT.partners), seen);
  const staff = parseOperators(read(IDENTITY_CONTEXT.operators), seen);
  const clash = staff.find((operator) => listed.some((partner) => partner.name === operator.name));
  if (clash) throw new Error(`context "operators": "${clash.name}" is also a partner's name; an operator is no tenant`);
  return { partners: listed, ...(staff.length > 0 && { operators: staff }) };
}

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`context "${key}" must be a string`);
  return value;
}

function stringList(value: unknown, key: string): string[] {
  const parsed = typeof value === 'string' ? maybeJson(value) : value;
  const list = typeof parsed === 'string' ? parsed.split(',') : parsed;
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
    throw new Error(`context "${key}" must be a comma-separated string or an array of strings`);
  }
  return list.map((v) => v.trim()).filter((v) => v !== '');
}
