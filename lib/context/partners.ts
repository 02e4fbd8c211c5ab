import type { KycMode } from '#domain/person';
import { MAX_LIST_SHARDS } from '#shared/db/shards';
import { isOperatorScope, SCOPES, type Scope } from '#shared/scopes';
import { burst, type RequestLimit, rate } from './api-limits';
import { parseKycMode } from './identification';
import { maybeJson } from './json-value';

// The context key `partners` (docs/deploy.md#context-keys), read and validated: who the
// tenants are, the scopes they bought, their client ids and their own settings. Read with
// the rest of the identity context in ./identity.ts.

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

/** A partner (tenant) name: also the client id the local token endpoint accepts (lib/local/gateway/token-endpoint.ts). */
export const PARTNER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** An OAuth client id as tokens carry it: printable ASCII, no whitespace. */
const CLIENT_ID = /^[\x21-\x7e]{1,256}$/;

/** Reads the partners, each client id listed once across everyone (`seen`); throws naming the entry on bad input. */
export function parsePartners(value: unknown, seen: Set<string>): PartnerConfig[] {
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
export function clientIdsOf(
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

const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);

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
