import { describe, expect, it } from 'vitest';
import { PARTNER_NAME } from '#lib/context/partners';
import type { Entity } from '#shared/db/entities';
import { KEY_PREFIX, type KeyKind, keyPattern } from '#shared/db/key-kinds';
import { keys } from '#shared/db/keys';
import { positionKeys } from '#shared/db/list-positions/index';
import { personKeys } from '#shared/db/persons/keys';
import { screeningKeys } from '#shared/db/screening/keys';
import { hitKeys } from '#shared/db/screening-hits/keys';
import { eventKeys } from '#shared/db/stored-events/keys';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { webhookConfigurationKeys } from '#shared/db/webhook-configurations/keys';
import { webhookSecretKeys } from '#shared/db/webhook-secrets/keys';
import { setDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';

// Every key of a tenant's record puts the tenant right after its kind prefix, then `#` or
// nothing: so a grant for one tenant's credentials (later: a session tagged with the
// tenant) can be `<prefix>${aws:PrincipalTag/tenant}#*` or, for a record that is one per
// tenant, exactly `<prefix>${aws:PrincipalTag/tenant}`, and reach no other tenant's key
// (docs/data-model.md#who-writes-which-keys). IAM confines only by the start of a key.

setDependencies({ digestKey: new DigestKey(Buffer.alloc(32, 1)) });

type KeyOf = (tenant: string) => string;

/**
 * The partition keys of every entity, for a tenant: each builder of a tenant's record, or
 * why the entity belongs to no tenant. Typed over every entity, so a new one is listed here
 * before the suite compiles.
 */
const TABLE_KEYS: Record<Entity, readonly KeyOf[] | { readonly noTenant: string }> = {
  verify_account: [(t) => accountKeys.account(t, 'id-1').pk],
  bank_wait: [(t) => accountKeys.bankWait(t, 'id-1', 'status').pk],
  verification_slot: [(t) => accountKeys.slots(t, '021000021', '123456789')],
  idempotency: [(t) => keys.idempotency(t, 'POST /verify/accounts', 'key-1').pk],
  rate_bucket: [(t) => keys.rateBucket(t).pk],
  tenant_alias: { noTenant: 'keyed by the OAuth client id: the alias is what decides the tenant' },
  tenant_settings: [(t) => keys.tenantSettings(t).pk],
  event: [(t) => eventKeys.event(t, 'evt-1').pk],
  delivery_attempt: [(t) => eventKeys.attempt(t, 'evt-1', 7).pk],
  delivery_claim: [(t) => eventKeys.claim(t, 'evt-1', { configuration_id: 'cfg-1', attempt: 2 }).pk],
  redelivery_pace: [(t) => eventKeys.redeliveryPace(t).pk],
  person: [(t) => personKeys.person(t, 'id-2').pk],
  person_reference: [(t) => personKeys.reference(t, 'ref-1').pk],
  review_case: [(t) => personKeys.reviewCase(t, 'id-2', '2026-01-01T00:00:00.000Z').pk],
  screening_change: { noTenant: 'a change of the lists re-screens every tenant’s persons' },
  screening_hit: [(t) => hitKeys.hit(t, 'id-2', 'sanctions', 'SDN-1').pk],
  screening_run: { noTenant: 'a re-screen walks every tenant’s persons' },
  screening_listing: { noTenant: 'the sanctions and alert lists screen every tenant’s persons' },
  screening_version: { noTenant: 'the version of the lists every tenant is screened against' },
  webhook_configuration: [
    (t) => webhookConfigurationKeys.configuration(t, 'cfg-1').pk,
    (t) => webhookConfigurationKeys.configurations(t),
  ],
  webhook_configuration_count: [(t) => webhookConfigurationKeys.configurationCount(t).pk],
  webhook_secret: [(t) => webhookSecretKeys.secret(t).pk],
  list_position: [
    (t) => positionKeys.cursor(t, 'AAAAAAAAAAAAAAAAAAAAAA').pk,
    (t) => positionKeys.bookmark(t, 'persons', { index: 'byTenant', partitions: [`T#${t}#P#created#0`] }, 50).pk,
  ],
};

/** The index partitions built for one tenant (a tenant's lists and lookups). */
const INDEX_KEYS: Record<string, KeyOf> = {
  'accounts list': (t) => accountKeys.list(t, 'pending', 3),
  'accounts by number': (t) => accountKeys.byAccountNumber(t, '123456789'),
  'persons list': (t) => personKeys.list(t, 'created', 0),
  'event log': (t) => eventKeys.list(t, 2),
};

const tenantKeys = Object.entries(TABLE_KEYS).flatMap(([entity, builders]) =>
  'noTenant' in builders ? [] : builders.map((build, n) => [`${entity} ${n + 1}`, build] as const),
);
const everyTenantKey = [...tenantKeys, ...Object.entries(INDEX_KEYS)];

const KINDS = Object.keys(KEY_PREFIX) as KeyKind[];
const prefixOf = (pk: string): string => {
  const kind = KINDS.find((candidate) => pk.startsWith(KEY_PREFIX[candidate]));
  if (!kind) throw new Error(`${pk} starts with no KEY_PREFIX`);
  return KEY_PREFIX[kind];
};

/** IAM StringLike. */
const like = (pattern: string, value: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(value);

/** The per-tenant patterns a grant would name for a key built for `tenant`: exact, or the tenant's keys below it. */
const tenantPatterns = (pk: string, tenant: string): string[] => {
  const prefix = prefixOf(pk);
  return [`${prefix}${tenant}`, `${prefix}${tenant}#*`];
};

describe('keys of a tenant’s records', () => {
  it.each(everyTenantKey)('%s: a kind prefix, the tenant, then `#` or the end', (_, build) => {
    const pk = build('acme');
    const prefix = prefixOf(pk);
    expect(pk === `${prefix}acme` || pk.startsWith(`${prefix}acme#`), pk).toBe(true);
  });

  it.each(everyTenantKey)('%s: a pattern for one tenant reaches none of another tenant’s keys', (_, build) => {
    for (const [mine, theirs] of [
      ['acme', 'acme2'],
      ['acme2', 'acme'],
      ['acm', 'acme'],
      ['acme', 'acme-eu'],
    ] as const) {
      const patterns = tenantPatterns(build(mine), mine);
      expect(patterns.some((pattern) => like(pattern, build(mine)))).toBe(true);
      expect(patterns.filter((pattern) => like(pattern, build(theirs)))).toEqual([]);
    }
  });

  it('tenant names cannot hold the separator or an IAM wildcard, so the tenant ends where the key says', () => {
    for (const name of ['acme#eu', 'acme*', 'acme?']) expect(PARTNER_NAME.test(name)).toBe(false);
    expect(PARTNER_NAME.test('acme-eu_2')).toBe(true);
  });

  it('list every entity: a record belongs to a tenant, or says why not', () => {
    const without = Object.entries(TABLE_KEYS).filter(([, builders]) => 'noTenant' in builders);
    expect(without.map(([entity]) => entity).sort()).toEqual([
      'screening_change',
      'screening_listing',
      'screening_run',
      'screening_version',
      'tenant_alias',
    ]);
  });
});

describe('kinds of key', () => {
  it('each kind’s pattern matches its own keys and no other kind’s', () => {
    const samples: Record<KeyKind, string> = {
      tenantData: personKeys.person('acme', 'id-1').pk,
      idempotency: keys.idempotency('acme', 'POST /persons', 'key-1').pk,
      rateBucket: keys.rateBucket('acme').pk,
      tenantAlias: keys.tenantAlias('client-1').pk,
      tenantSettings: keys.tenantSettings('acme').pk,
      listPosition: positionKeys.cursor('acme', 'AAAAAAAAAAAAAAAAAAAAAA').pk,
      screeningEntry: screeningKeys.listing('sanctions', 'SDN-1').pk,
      redeliveryPace: eventKeys.redeliveryPace('acme').pk,
      screeningRun: screeningKeys.run('c1', 0).pk,
    };
    for (const kind of KINDS) {
      for (const [other, pk] of Object.entries(samples))
        expect(like(keyPattern(kind), pk), `${kind} ${pk}`).toBe(other === kind);
    }
  });

  it('every key of every entity is of exactly one kind', () => {
    for (const [name, build] of tenantKeys) {
      const pk = build('acme');
      expect(
        KINDS.filter((kind) => like(keyPattern(kind), pk)),
        `${name}: ${pk}`,
      ).toHaveLength(1);
    }
  });
});
