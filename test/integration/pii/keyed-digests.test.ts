import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENTITY } from '#shared/db/entities';
import { canonical } from '#shared/http/idempotency';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';
import { accountBody } from '../verify-accounts/support';
import { scanTable } from './support';

/**
 * A table reader (a Scan, the stream, a backup) must not be able to confirm a guess of an
 * SSN, a tax id, an account number, a statement code, a customer reference or an
 * `Idempotency-Key` from what the table stores: every digest of such a value is keyed
 * (HMAC under the digest key, which no table reader holds). The test plays the attacker:
 * it knows every value it sent and computes every unkeyed digest of them the service ever
 * stored (SHA-256 in hex, whole and cut to 32 characters, and the idempotency fingerprint
 * `sha256(path + "\n" + canonical body)`), then looks for them in every attribute of every
 * item.
 */
let runtime: LocalRuntime;

const SSN = '587-23-9146';
const OWNER_SSN = '478120953';
const TAX_ID = '839201746';
const ROUTING = '021000021';
const ACCOUNTS = { owner: '73120452617', business: '73120459382', control: '73120457784' };
const REFERENCE = 'cust-digest-7741';
/** The sandbox bank's statement code; a wrong one the caller sends. */
const CODES = ['0000', 'K9QZ'];
/** A partner may use a secret as its `Idempotency-Key`. */
const KEYS = { person: SSN, owner: ACCOUNTS.owner, business: TAX_ID, control: 'control-try-1' };

/** Every request body sent with an `Idempotency-Key`, by its path. */
const idempotentRequests: { path: string; body: unknown }[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime();
  const alice = api(runtime, await runtime.mintToken('tenant-digests'));
  const send = async (path: string, body: unknown, key: string) => {
    idempotentRequests.push({ path, body });
    const response = await alice.post(path, body, { headers: { 'idempotency-key': key } });
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return response;
  };
  await send('/persons', personBody({ social_security_number: SSN, customer_reference_id: REFERENCE }), KEYS.person);
  const owner = { first_name: 'Jane', last_name: 'Doe', ssn: OWNER_SSN };
  await send(
    '/verify/accounts',
    accountBody({ account_number: ACCOUNTS.owner, routing_number: ROUTING, type: 'status_ownership', person: owner }),
    KEYS.owner,
  );
  await send(
    '/verify/accounts',
    accountBody({
      account_number: ACCOUNTS.business,
      routing_number: ROUTING,
      type: 'status_ownership',
      business: { business_name: 'Doe Ltd', tax_id: TAX_ID },
    }),
    KEYS.business,
  );
  const control = await alice.post(
    '/verify/accounts',
    accountBody({ account_number: ACCOUNTS.control, routing_number: ROUTING, type: 'control' }),
  );
  expect(control.status).toBe(200);
  await runtime.settle();
  const path = `/verify/accounts/${control.body.account.id}/control`;
  idempotentRequests.push({ path, body: { statement_code: CODES[1] } });
  const wrong = await alice.post(path, { statement_code: CODES[1] }, { headers: { 'idempotency-key': KEYS.control } });
  expect(wrong.status).toBe(400);
}, 60_000);

afterAll(() => runtime?.stop());

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** Every unkeyed digest an attacker would compute from a guess, with what it is of. */
function unkeyedDigests(): { label: string; digest: string }[] {
  const guesses: [string, string][] = [
    ['SSN', SSN],
    ['SSN', SSN.replaceAll('-', '')],
    ['owner SSN', OWNER_SSN],
    ['tax id', TAX_ID],
    ['customer reference', REFERENCE],
    ...Object.values(ACCOUNTS).flatMap((n): [string, string][] => [
      ['account number', n],
      ['routing and account number', `${ROUTING}:${n}`],
    ]),
    ...CODES.flatMap((c): [string, string][] => [
      ['statement code', c],
      ['statement code', c.toLowerCase()],
    ]),
    ...Object.values(KEYS).map((k): [string, string] => ['Idempotency-Key', k]),
    ...idempotentRequests.map(({ path, body }): [string, string] => [
      `request fingerprint of ${path}`,
      `${path}\n${canonical(body)}`,
    ]),
  ];
  return guesses.flatMap(([label, value]) => {
    const digest = sha256(value);
    return [
      { label: `sha256 of ${label}`, digest },
      { label: `sha256/32 of ${label}`, digest: digest.slice(0, 32) },
    ];
  });
}

describe('digests of secrets and PII in the table', () => {
  it('stores the digests the test looks at: idempotency records, a statement code, account-number and reference keys', async () => {
    const items = await scanTable(runtime);
    const entities = items.map((item) => item.entity);
    expect(entities.filter((e) => e === ENTITY.idempotency).length).toBeGreaterThanOrEqual(4);
    expect(entities).toContain(ENTITY.personReference);
    expect(items.some((item) => typeof item.statement_code_hash === 'string')).toBe(true);
    expect(items.filter((item) => String(item.gsi2pk ?? '').includes('#VAN#')).length).toBe(3);
  });

  it('holds no unkeyed digest of an SSN, tax id, account number, statement code, reference, key or request', async () => {
    const stored = (await scanTable(runtime)).map((item) => JSON.stringify(item).toLowerCase());
    const found = unkeyedDigests()
      .filter(({ digest }) => stored.some((text) => text.includes(digest)))
      .map(({ label }) => label);
    expect([...new Set(found)]).toEqual([]);
  });
});
