import type { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { KycMode } from '#domain/person';
import { MAX_LIST_SHARDS } from '#shared/db/shards';
import { isOperatorScope, OPERATOR_SCOPES, SCOPES, type Scope } from '#shared/scopes';
import { burst, type RequestLimit, rate } from './api-limits';
import { parseKycMode } from './identification';

/**
 * A partner, i.e. a tenant. In Cognito mode it gets its own client-credentials app client;
 * either way, each of its client ids gets an alias record that maps the id to `name`.
 */
export interface PartnerConfig {
  /** Tenant name; also the app client's name. Letters, digits, `-` and `_`. */
  readonly name: string;
  /**
   * The scopes this partner bought (Cognito mode).
   * @default - every scope in SCOPES
   */
  readonly scopes?: readonly Scope[];
  /**
   * Cognito mode: further client ids of this tenant besides its app client's, e.g. an app
   * client of the same pool created outside the stack while credentials are rotated.
   * They also join the authorizer's audience.
   * @default - none
   */
  readonly aliases?: readonly string[];
  /**
   * External-issuer mode: the client ids (`client_id` claims) of this tenant at that
   * issuer. Cognito mode refuses them, since Cognito assigns app client ids.
   * @default - none; the partner then has no alias record
   */
  readonly clientIds?: readonly string[];
  /**
   * Who identifies this tenant's persons, fixed at onboarding: `byo` (the partner does, the
   * service only screens) or `service` (the service also asks its identity vendor). Written
   * as the tenant's settings record (`TENANT#<name>` / `SETTINGS`) by `TenantRecords`, in
   * either mode.
   * @default - no settings record: the deployment's default (context `kycMode`) applies
   */
  readonly kycMode?: KycMode;
  /**
   * This tenant's own request rate and burst (its token bucket, docs/api.md#rate-limits),
   * written into its settings record like `kycMode`.
   * @default - the deployment's (context `tenantRatePerSecond`, `tenantBurst`)
   */
  readonly rateLimit?: RequestLimit;
  /**
   * Shards of this tenant's list partitions (1–32), for a tenant that writes more than
   * one partition's 1,000 writes a second allow (docs/data-model.md#write-sharding). Only
   * ever raise it: lowering it hides the records in the shards dropped.
   * @default 1
   */
  readonly listShards?: number;
}

/**
 * An operator of the service itself (compliance staff reviewing screening hits): a client
 * holding the operator scopes (`OPERATOR_SCOPES`) and nothing else, never a partner. Its
 * name is its own tenant for the HTTP stack's records (rate limit, idempotency, list
 * positions); it owns no partner data.
 */
export interface OperatorConfig {
  /** Letters, digits, `-` and `_`; no partner may have the same name. Cognito mode: also the app client's name. */
  readonly name: string;
  /**
   * Cognito mode: further client ids of this operator (credential rotation).
   * @default - none
   */
  readonly aliases?: readonly string[];
  /**
   * External-issuer mode: the operator's client ids at that issuer, which must grant them
   * the operator scopes only.
   * @default - none
   */
  readonly clientIds?: readonly string[];
}

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

/** A partner (tenant) name: also the client id the local token endpoint accepts (lib/local/gateway/token-endpoint.ts). */
export const PARTNER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** An OAuth client id as tokens carry it: printable ASCII, no whitespace. */
const CLIENT_ID = /^[\x21-\x7e]{1,256}$/;

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
  const listed = partners(read(IDENTITY_CONTEXT.partners), seen);
  const staff = operators(read(IDENTITY_CONTEXT.operators), seen);
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

function partners(value: unknown, seen: Set<string>): PartnerConfig[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? maybeJson(value) : value;
  if (!Array.isArray(list)) {
    throw new Error(
      'context "partners" must be an array of { name, scopes?, aliases?, clientIds?, kycMode?, rateLimit? }',
    );
  }
  return list.map((entry, i) => {
    const where = `context "partners"[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where} must be an object`);
    const { name, scopes, aliases, clientIds, kycMode, rateLimit, listShards } = entry as {
      name?: unknown;
      scopes?: unknown;
      aliases?: unknown;
      clientIds?: unknown;
      kycMode?: unknown;
      rateLimit?: unknown;
      listShards?: unknown;
    };
    if (typeof name !== 'string' || !PARTNER_NAME.test(name)) {
      throw new Error(`${where}.name must be 1-64 letters, digits, "-" or "_"`);
    }
    const partner: { -readonly [K in keyof PartnerConfig]: PartnerConfig[K] } = { name };
    if (scopes !== undefined) {
      const operatorScope = Array.isArray(scopes) ? scopes.find(isOperatorScope) : undefined;
      if (operatorScope !== undefined) {
        throw new Error(
          `${where}.scopes: "${operatorScope}" is an operator scope, never granted to a partner; list the service's operators under context "operators"`,
        );
      }
      if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every(isScope)) {
        throw new Error(`${where}.scopes must be a non-empty list drawn from: ${SCOPES.join(', ')}`);
      }
      partner.scopes = scopes;
    }
    if (kycMode !== undefined) partner.kycMode = parseKycMode(kycMode, `${where}.kycMode`);
    if (rateLimit !== undefined) partner.rateLimit = parseRateLimit(rateLimit, `${where}.rateLimit`);
    if (listShards !== undefined) {
      if (!Number.isInteger(listShards) || (listShards as number) < 1 || (listShards as number) > MAX_LIST_SHARDS) {
        throw new Error(`${where}.listShards must be an integer from 1 to ${MAX_LIST_SHARDS}`);
      }
      partner.listShards = listShards as number;
    }
    Object.assign(partner, clientIdsOf({ aliases, clientIds }, where, seen));
    return partner;
  });
}

/** A person's `aliases` and `clientIds`, each a client id listed once across everyone (`seen`). */
function clientIdsOf(
  fields: { aliases?: unknown; clientIds?: unknown },
  where: string,
  seen: Set<string>,
): { aliases?: string[]; clientIds?: string[] } {
  const result: { aliases?: string[]; clientIds?: string[] } = {};
  for (const field of ['aliases', 'clientIds'] as const) {
    const ids = fields[field];
    if (ids === undefined) continue;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && CLIENT_ID.test(id))) {
      throw new Error(`${where}.${field} must be a list of client ids (1-256 printable ASCII characters, no spaces)`);
    }
    for (const id of ids as string[]) {
      // One client id acts for one tenant (or operator) only.
      if (seen.has(id)) throw new Error(`${where}.${field}: client id "${id}" is listed twice`);
      seen.add(id);
    }
    result[field] = ids as string[];
  }
  return result;
}

function operators(value: unknown, seen: Set<string>): OperatorConfig[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? maybeJson(value) : value;
  if (!Array.isArray(list)) throw new Error('context "operators" must be an array of { name, aliases?, clientIds? }');
  const names = new Set<string>();
  return list.map((entry, i) => {
    const where = `context "operators"[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where} must be an object`);
    const { name, aliases, clientIds, ...other } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || !PARTNER_NAME.test(name)) {
      throw new Error(`${where}.name must be 1-64 letters, digits, "-" or "_"`);
    }
    if (names.has(name)) throw new Error(`${where}: operator "${name}" is listed twice`);
    names.add(name);
    const unknown = Object.keys(other)[0];
    if (unknown !== undefined) {
      throw new Error(
        `${where}.${unknown} is not an operator setting (an operator holds ${OPERATOR_SCOPES.join(', ')} and nothing else): name, aliases?, clientIds?`,
      );
    }
    return { name, ...clientIdsOf({ aliases, clientIds }, where, seen) };
  });
}

const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);

function maybeJson(value: string): unknown {
  const trimmed = value.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return value;
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new Error(`context value is not valid JSON: ${value}`);
  }
}

/** A partner's own request limit: `{ ratePerSecond, burst }`, both required. */
function parseRateLimit(value: unknown, where: string): RequestLimit {
  const { ratePerSecond, burst: burstValue } = (typeof value === 'object' && value !== null ? value : {}) as {
    ratePerSecond?: unknown;
    burst?: unknown;
  };
  const limit = {
    ratePerSecond: rate(ratePerSecond, `${where}.ratePerSecond`),
    burst: burst(burstValue, `${where}.burst`),
  };
  if (limit.ratePerSecond === undefined || limit.burst === undefined) {
    throw new Error(`${where} must be { ratePerSecond, burst }: a positive rate and a whole burst of at least 1`);
  }
  return { ratePerSecond: limit.ratePerSecond, burst: limit.burst };
}
